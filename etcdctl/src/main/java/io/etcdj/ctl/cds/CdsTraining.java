package io.etcdj.ctl.cds;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.KVGrpc;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.PutResponse;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.etcdserverpb.ResponseHeader;
import io.etcdj.api.mvccpb.KeyValue;
import io.etcdj.client.EtcdClient;
import io.etcdj.ctl.RootCommand;
import io.etcdj.ctl.cli.EtcdctlApp;
import io.grpc.Server;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Entry point of the package-time training run ({@code java -XX:ArchiveClassesAtExit=... CdsTraining}):
 * serves Put and Range on an ephemeral loopback port and runs put and get through the real command
 * path in every common output format.
 */
public final class CdsTraining {

    private CdsTraining() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        EtcdClient.useOwnEventLoops(); // as bin/etcdctl's Main does
        System.exit(train() == 0 ? 0 : 1);
    }

    /**
     * Runs the training command lines once against a canned server; returns how many failed. Also
     * the warm server's warm-up, so its first call finds the classes loaded.
     */
    public static int train() throws IOException, InterruptedException {
        Server server = NettyServerBuilder.forAddress(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .addService(new CannedKv()).build().start();
        int port = ((InetSocketAddress) server.getListenSockets().get(0)).getPort();
        String endpoints = "--endpoints=127.0.0.1:" + port;
        String[][] runs = {
            {endpoints, "put", "training", "value"},
            {endpoints, "get", "training"},
            {endpoints, "get", "training", "-w", "json"},
            {endpoints, "get", "--prefix", "train", "-w", "fields"},
        };
        PrintStream sink = new PrintStream(new ByteArrayOutputStream());
        int failures = 0;
        for (String[] run : runs) {
            failures += new EtcdctlApp(RootCommand::tree).run(run, sink, sink, new ByteArrayInputStream(new byte[0]),
                    Map.of()) == 0 ? 0 : 1;
        }
        server.shutdownNow().awaitTermination(2, TimeUnit.SECONDS);
        return failures;
    }

    /** Answers every Put with OK and every Range with one key. */
    private static final class CannedKv extends KVGrpc.KVImplBase {
        private static final ResponseHeader HEADER = ResponseHeader.newBuilder().setClusterId(1).setMemberId(1)
                .setRevision(2).setRaftTerm(1).build();

        @Override
        public void put(PutRequest request, StreamObserver<PutResponse> out) {
            out.onNext(PutResponse.newBuilder().setHeader(HEADER).build());
            out.onCompleted();
        }

        @Override
        public void range(RangeRequest request, StreamObserver<RangeResponse> out) {
            out.onNext(RangeResponse.newBuilder().setHeader(HEADER).setCount(1)
                    .addKvs(KeyValue.newBuilder().setKey(request.getKey()).setValue(ByteString.copyFromUtf8("value"))
                            .setCreateRevision(2).setModRevision(2).setVersion(1))
                    .build());
            out.onCompleted();
        }
    }
}
