package io.etcdj.server.proxy.grpc;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.KVGrpc;
import io.etcdj.api.etcdserverpb.LeaseGrantRequest;
import io.etcdj.api.etcdserverpb.LeaseGrpc;
import io.etcdj.api.etcdserverpb.LeaseKeepAliveRequest;
import io.etcdj.api.etcdserverpb.LeaseKeepAliveResponse;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.mvccpb.KeyValue;
import io.etcdj.server.log.Log;
import io.grpc.Channel;
import io.grpc.stub.StreamObserver;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * --resolver-prefix: the proxy registers its advertised address under
 * {@code <namespace><prefix>/<address>} with a lease of --resolver-ttl seconds that it keeps alive,
 * in the JSON etcd's gRPC naming resolver writes; proxies sharing the prefix list each other as
 * the cluster's members.
 */
final class Registration implements AutoCloseable {
    private static final Log LOG = Log.get("grpcproxy/register.go");

    private final KVGrpc.KVBlockingStub kv;
    private final LeaseGrpc.LeaseBlockingStub lease;
    private final LeaseGrpc.LeaseStub leaseAsync;
    private final Namespace ns;
    private final String prefix;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "grpc-proxy-register");
        t.setDaemon(true);
        return t;
    });
    private volatile boolean closed;

    Registration(Channel channel, Namespace ns, String prefix) {
        this.kv = KVGrpc.newBlockingStub(channel);
        this.lease = LeaseGrpc.newBlockingStub(channel);
        this.leaseAsync = LeaseGrpc.newStub(channel);
        this.ns = ns;
        this.prefix = prefix;
    }

    /** Registers in the background, retrying every second until it succeeds, then keeps the lease alive. */
    void start(String address, long ttl) {
        timer.execute(() -> register(address, ttl));
    }

    private void register(String address, long ttl) {
        if (closed) {
            return;
        }
        try {
            long id = lease.withDeadlineAfter(5, TimeUnit.SECONDS)
                    .leaseGrant(LeaseGrantRequest.newBuilder().setTTL(ttl).build()).getID();
            kv.withDeadlineAfter(5, TimeUnit.SECONDS).put(PutRequest.newBuilder()
                    .setKey(ns.key(ByteString.copyFromUtf8(prefix + "/" + address)))
                    .setValue(ByteString.copyFromUtf8(value(address))).setLease(id).build());
            LOG.info("registered \"" + address + "\" with " + ttl + "-second lease");
            keepAlive(id, address, ttl);
        } catch (RuntimeException e) {
            LOG.warn("failed to create a session", "error", String.valueOf(e.getMessage()));
            timer.schedule(() -> register(address, ttl), 1, TimeUnit.SECONDS);
        }
    }

    private void keepAlive(long id, String address, long ttl) {
        StreamObserver<LeaseKeepAliveRequest> stream = leaseAsync.leaseKeepAlive(new StreamObserver<>() {
            @Override
            public void onNext(LeaseKeepAliveResponse r) {
                if (r.getTTL() <= 0 && !closed) {
                    // the lease is gone (expired while we were cut off): register anew
                    timer.execute(() -> register(address, ttl));
                }
            }

            @Override
            public void onError(Throwable t) {
                if (!closed) {
                    timer.schedule(() -> register(address, ttl), 1, TimeUnit.SECONDS);
                }
            }

            @Override
            public void onCompleted() {
                onError(null);
            }
        });
        long every = Math.max(500, ttl * 1000 / 3);
        timer.scheduleWithFixedDelay(() -> {
            if (!closed) {
                try {
                    stream.onNext(LeaseKeepAliveRequest.newBuilder().setID(id).build());
                } catch (RuntimeException e) {
                    // the stream failed; onError registers again
                }
            }
        }, every, every, TimeUnit.MILLISECONDS);
    }

    /** etcd's naming.Update as JSON: {"Op":0,"Addr":...,"Metadata":"{\"name\":\"<host>\"}"}. */
    static String value(String address) {
        String meta = "{\"name\":\"" + json(hostname()) + "\"}";
        return "{\"Op\":0,\"Addr\":\"" + json(address) + "\",\"Metadata\":\"" + json(meta) + "\"}";
    }

    /** The registered proxies under the prefix: name from the metadata, address as client URL. */
    List<String[]> members() {
        ByteString from = ns.key(ByteString.copyFromUtf8(prefix + "/"));
        ByteString to = ns.end(ByteString.copyFromUtf8(prefix + "0"));
        RangeResponse r = kv.withDeadlineAfter(5, TimeUnit.SECONDS)
                .range(RangeRequest.newBuilder().setKey(from).setRangeEnd(to).build());
        List<String[]> out = new ArrayList<>();
        for (KeyValue kvp : r.getKvsList()) {
            String key = ns.strip(kvp.getKey()).toStringUtf8();
            String addr = key.substring(prefix.length() + 1);
            String v = kvp.getValue().toStringUtf8();
            Matcher m = Pattern.compile("name\\\\\"\\s*:\\s*\\\\\"([^\\\\\"]*)").matcher(v);
            out.add(new String[] {m.find() ? m.group(1) : "", addr});
        }
        return out;
    }

    private static String hostname() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            String env = System.getenv("HOSTNAME");
            return env == null ? "" : env;
        }
    }

    private static String json(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    @Override
    public void close() {
        closed = true;
        timer.shutdownNow();
    }
}
