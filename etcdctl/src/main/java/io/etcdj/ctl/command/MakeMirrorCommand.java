package io.etcdj.ctl.command;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.DeleteRangeRequest;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.etcdserverpb.RequestOp;
import io.etcdj.api.etcdserverpb.TxnRequest;
import io.etcdj.api.etcdserverpb.WatchCreateRequest;
import io.etcdj.api.etcdserverpb.WatchRequest;
import io.etcdj.api.etcdserverpb.WatchResponse;
import io.etcdj.api.mvccpb.Event;
import io.etcdj.api.mvccpb.KeyValue;
import io.etcdj.cli.CliException;
import io.etcdj.cli.ExitCodes;
import io.etcdj.client.ClientConfig;
import io.etcdj.client.Endpoint;
import io.etcdj.client.EtcdClient;
import io.etcdj.client.EtcdClientException;
import io.etcdj.client.TlsOptions;
import io.etcdj.ctl.cli.Credentials;
import io.etcdj.ctl.cli.CtlCommand;
import io.etcdj.ctl.printer.KeyRanges;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code make-mirror destination}: copies the keys under --prefix to the destination cluster at one
 * revision, then replays every later change, one destination transaction per source revision. Prints
 * the number of keys mirrored so far every 30 seconds; runs until interrupted.
 */
@Command(name = "make-mirror", description = "Makes a mirror at the destination etcd cluster",
        customSynopsis = "etcdctl make-mirror [options] <destination> [flags]")
public final class MakeMirrorCommand extends CtlCommand {

    private static final Object END = new Object();
    private static final long PAGE = 1000;

    @Option(names = "--prefix", defaultValue = "", description = "Key-value prefix to mirror")
    String prefix;

    @Option(names = "--dest-prefix", defaultValue = "",
            description = "destination prefix to mirror a prefix to a different prefix in the destination cluster")
    String destPrefix;

    @Option(names = "--no-dest-prefix", arity = "0..1", description = "mirror key-values to the root of the destination cluster")
    boolean noDestPrefix;

    @Option(names = "--dest-cacert", defaultValue = "",
            description = "Verify certificates of TLS enabled secure servers using this CA bundle")
    String destCacert;

    @Option(names = "--dest-cert", defaultValue = "",
            description = "Identify secure client using this TLS certificate file for the destination cluster")
    String destCert;

    @Option(names = "--dest-key", defaultValue = "", description = "Identify secure client using this TLS key file")
    String destKey;

    @Option(names = "--dest-insecure-transport", arity = "0..1", defaultValue = "true",
            description = "Disable transport security for client connections")
    boolean destInsecureTransport;

    @Option(names = "--dest-user", defaultValue = "",
            description = "Destination username[:password] for authentication (prompt if password is not supplied)")
    String destUser;

    @Option(names = "--dest-password", defaultValue = "",
            description = "Destination password for authentication (if this option is used, --user option shouldn't include password)")
    String destPassword;

    @Option(names = "--rev", defaultValue = "0", description = "Specify the kv revision to start to mirror")
    long rev;

    @Option(names = "--max-txn-ops", defaultValue = "128",
            description = "Maximum number of operations permitted in a transaction during syncing updates.")
    long maxTxnOps;

    @Parameters(arity = "0..*")
    List<String> args;

    private final AtomicLong total = new AtomicLong();

    @Override
    protected void run() {
        String arg = onlyArg(args, "make-mirror takes one destination argument");
        try (EtcdClient dest = destination(arg)) {
            EtcdClient source = ctx.client();
            if (noDestPrefix && !destPrefix.isEmpty()) {
                throw CliException.badArgs("`--dest-prefix` and `--no-dest-prefix` cannot be set at the same time, choose one");
            }
            String target = noDestPrefix ? "" : destPrefix.isEmpty() ? prefix : destPrefix;
            Thread reporter = startReporter();
            try {
                // with --rev the key space is not copied: the changes are replayed from that revision on
                long from = rev > 1 ? rev : copyBase(source, dest, target) + 1;
                replay(source, dest, target, from);
            } finally {
                reporter.interrupt();
            }
        }
    }

    private EtcdClient destination(String endpoints) {
        Credentials credentials = Credentials.of(destUser, destPassword, "Destination Password: ", ctx);
        List<Endpoint> eps = new ArrayList<>();
        for (String e : endpoints.split(",")) {
            eps.add(Endpoint.parse(e));
        }
        ClientConfig cfg = ClientConfig.builder().endpoints(eps)
                .dialTimeout(ctx.options().dialTimeout()).commandTimeout(ctx.options().commandTimeout())
                .keepAliveTime(ctx.options().keepAliveTime()).keepAliveTimeout(ctx.options().keepAliveTimeout())
                .insecureTransport(destInsecureTransport)
                .tls(new TlsOptions(path(destCacert), path(destCert), path(destKey), false))
                .credentials(credentials == null ? null : credentials.user(), credentials == null ? null : credentials.password())
                .build();
        try {
            return EtcdClient.connect(cfg);
        } catch (EtcdClientException e) {
            throw new CliException(ExitCodes.BAD_CONNECTION, e.getMessage(), e);
        }
    }

    private Path path(String s) {
        return s.isEmpty() ? null : ctx.file(s);
    }

    private Thread startReporter() {
        Thread t = new Thread(() -> {
            try {
                while (true) {
                    Thread.sleep(30_000);
                    ctx.out().println(Long.toString(total.get()));
                }
            } catch (InterruptedException stop) {
                Thread.currentThread().interrupt();
            }
        }, "mirror-progress");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private ByteString rangeEnd() {
        return prefix.isEmpty() ? KeyRanges.FROM_KEY : KeyRanges.prefixEnd(Args.bytes(prefix));
    }

    private ByteString rewrite(ByteString key, String target) {
        return Args.bytes(target).concat(key.substring(Args.bytes(prefix).size()));
    }

    /** Copies every key under the prefix as of one revision, page by page; returns that revision. */
    private long copyBase(EtcdClient source, EtcdClient dest, String target) {
        ByteString from = prefix.isEmpty() ? KeyRanges.FROM_KEY : Args.bytes(prefix);
        long rev = 0;
        while (true) {
            RangeRequest req = RangeRequest.newBuilder().setKey(from).setRangeEnd(rangeEnd()).setRevision(rev)
                    .setLimit(PAGE).build();
            RangeResponse r = source.kv(s -> s.range(req));
            if (rev == 0) {
                rev = r.getHeader().getRevision();
            }
            for (KeyValue kv : r.getKvsList()) {
                PutRequest put = PutRequest.newBuilder().setKey(rewrite(kv.getKey(), target)).setValue(kv.getValue()).build();
                dest.kv(s -> s.put(put));
                total.incrementAndGet();
            }
            if (!r.getMore() || r.getKvsCount() == 0) {
                return rev;
            }
            from = r.getKvs(r.getKvsCount() - 1).getKey().concat(ByteString.copyFrom(new byte[] {0}));
        }
    }

    private void replay(EtcdClient source, EtcdClient dest, String target, long startRev) {
        BlockingQueue<Object> queue = new LinkedBlockingQueue<>();
        StreamObserver<WatchRequest> stream = source.watchAsync().watch(new StreamObserver<>() {
            @Override
            public void onNext(WatchResponse value) {
                queue.add(value);
            }

            @Override
            public void onError(Throwable t) {
                queue.add(t);
            }

            @Override
            public void onCompleted() {
                queue.add(END);
            }
        });
        stream.onNext(WatchRequest.newBuilder().setCreateRequest(WatchCreateRequest.newBuilder()
                .setKey(prefix.isEmpty() ? KeyRanges.FROM_KEY : Args.bytes(prefix)).setRangeEnd(rangeEnd())
                .setStartRevision(startRev)).build());
        try {
            while (true) {
                Object next = queue.take();
                if (next instanceof Throwable t) {
                    throw CliException.error(EtcdClientException.from(Status.fromThrowable(t)).getMessage());
                }
                if (next == END) {
                    return;
                }
                WatchResponse r = (WatchResponse) next;
                if (r.getCanceled()) {
                    throw CliException.error("watch canceled: " + r.getCancelReason());
                }
                applyByRevision(dest, target, r.getEventsList());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            stream.onCompleted();
        }
    }

    /**
     * Groups the events of one source revision into one destination transaction, of at most
     * --max-txn-ops operations (a revision with more is split, as etcdctl splits it).
     */
    private void applyByRevision(EtcdClient dest, String target, List<Event> events) {
        TxnRequest.Builder txn = TxnRequest.newBuilder();
        long last = -1;
        for (Event ev : events) {
            long evRev = ev.getKv().getModRevision();
            if (last != -1 && evRev != last || txn.getSuccessCount() == maxTxnOps) {
                commit(dest, txn);
                txn = TxnRequest.newBuilder();
            }
            last = evRev;
            ByteString key = rewrite(ev.getKv().getKey(), target);
            if (ev.getType() == Event.EventType.DELETE) {
                txn.addSuccess(RequestOp.newBuilder().setRequestDeleteRange(DeleteRangeRequest.newBuilder().setKey(key)));
            } else {
                txn.addSuccess(RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder().setKey(key)
                        .setValue(ev.getKv().getValue())));
            }
            total.incrementAndGet();
        }
        commit(dest, txn);
    }

    private static void commit(EtcdClient dest, TxnRequest.Builder txn) {
        if (txn.getSuccessCount() > 0) {
            TxnRequest req = txn.build();
            dest.kv(s -> s.txn(req));
        }
    }
}
