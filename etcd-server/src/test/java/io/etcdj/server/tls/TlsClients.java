package io.etcdj.server.tls;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.KVGrpc;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.certs.PemFiles;
import io.etcdj.certs.TlsFiles;
import io.etcdj.harness.Command;
import io.grpc.ManagedChannel;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyChannelBuilder;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** Clients for the TLS tests: gRPC and HTTPS from Java, and the real etcdctl and curl when installed. */
final class TlsClients {
    static final Path ETCDCTL = Path.of("/usr/bin/etcdctl");
    static final Path CURL = Path.of("/usr/bin/curl");

    private TlsClients() {
    }

    /** A gRPC channel trusting {@code ca}, presenting {@code client} when not null. */
    static ManagedChannel grpc(String endpoint, Path ca, TlsFiles client) throws IOException {
        SslContextBuilder b = GrpcSslContexts.forClient().trustManager(ca.toFile());
        if (client != null) {
            b.keyManager(client.keyManagerFactory());
        }
        return NettyChannelBuilder.forTarget(endpoint).sslContext(b.build()).build();
    }

    static void put(ManagedChannel ch, String key, String value) {
        KVGrpc.newBlockingStub(ch).withDeadlineAfter(10, TimeUnit.SECONDS)
                .put(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8(key)).setValue(ByteString.copyFromUtf8(value)).build());
    }

    /** A linearizable read of one key; empty string when absent. */
    static String get(ManagedChannel ch, String key) {
        var r = KVGrpc.newBlockingStub(ch).withDeadlineAfter(10, TimeUnit.SECONDS)
                .range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8(key)).build());
        return r.getKvsCount() == 0 ? "" : r.getKvs(0).getValue().toStringUtf8();
    }

    static void close(ManagedChannel ch) throws InterruptedException {
        ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }

    /** An HTTPS client trusting only {@code ca}; with {@code client}'s certificate when not null. */
    static HttpClient https(Path ca, TlsFiles client) throws Exception {
        SSLContext ctx;
        if (client != null) {
            ctx = new TlsFiles(client.certFile(), client.keyFile(), ca).sslContext();
        } else {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            int i = 0;
            for (X509Certificate c : PemFiles.readCertificates(ca)) {
                store.setCertificateEntry("ca" + i++, c);
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(store);
            ctx = SSLContext.getInstance("TLS");
            ctx.init(null, tmf.getTrustManagers(), null);
        }
        return HttpClient.newBuilder().sslContext(ctx).connectTimeout(Duration.ofSeconds(10)).build();
    }

    static HttpResponse<String> httpGet(HttpClient http, String url) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(15)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> httpPost(HttpClient http, String url, String json) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(15))
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    record Result(int exitCode, String output) {
    }

    /** Runs a command (etcdctl, curl) with a time limit; output is stdout and stderr together. */
    static Result run(List<String> command) throws IOException, InterruptedException {
        Command.Result r = Command.of(command).env("ETCDCTL_API", "3").mergeStderr().run();
        return new Result(r.exitCode(), r.stdout());
    }

    /** etcdctl against {@code endpoint} with TLS flags: {@code --cacert ca} and the client's files if given. */
    static Result etcdctl(String endpoint, Path ca, TlsFiles client, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(ETCDCTL.toString(), "--endpoints", "https://" + endpoint,
                "--dial-timeout", "3s", "--command-timeout", "5s", "--cacert", ca.toString()));
        if (client != null) {
            cmd.addAll(List.of("--cert", client.certFile().toString(), "--key", client.keyFile().toString()));
        }
        cmd.addAll(List.of(args));
        return run(cmd);
    }
}
