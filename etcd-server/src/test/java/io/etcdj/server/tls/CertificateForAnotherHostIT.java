package io.etcdj.server.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.KVGrpc;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.certs.CertificateAuthority;
import io.etcdj.certs.CertificateRequest;
import io.etcdj.harness.EtcdProcess;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyChannelBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A member whose server certificate names another host ("etcd0", as jetcd's test certificates do)
 * than the one of its --advertise-client-urls (127.0.0.1): the real etcd 3.4 starts with it, since
 * it never dials its own client URLs, and so does ours, with a warning. Clients that dial the name
 * in the certificate are served; a client that checks 127.0.0.1 against it refuses the handshake,
 * as it would with etcd.
 */
class CertificateForAnotherHostIT {
    @TempDir
    Path dir;

    private EtcdProcess member(EtcdProcess.Binary binary, Path cert, Path key) {
        String[] flags = {"--cert-file=" + cert, "--key-file=" + key};
        EtcdProcess m = binary == EtcdProcess.Binary.OURS ? EtcdProcess.ours(flags) : EtcdProcess.realEtcd(flags);
        m.clientScheme("https");
        return m;
    }

    private static ManagedChannel dial(EtcdProcess m, Path ca, String authority) throws Exception {
        NettyChannelBuilder b = NettyChannelBuilder.forTarget(m.endpoint())
                .sslContext(GrpcSslContexts.forClient().trustManager(ca.toFile()).build());
        if (authority != null) {
            b.overrideAuthority(authority);
        }
        return b.build();
    }

    private static long revision(ManagedChannel ch) {
        return KVGrpc.newBlockingStub(ch).withDeadlineAfter(20, TimeUnit.SECONDS)
                .range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("k")).build())
                .getHeader().getRevision();
    }

    @Test
    void aMemberStartsWithACertificateForAnotherHostName() throws Exception {
        CertificateAuthority ca = CertificateAuthority.create("test-ca");
        Path caFile = dir.resolve("ca.pem");
        ca.writePem(caFile, dir.resolve("ca-key.pem"));
        Path cert = dir.resolve("etcd0.pem");
        Path key = dir.resolve("etcd0-key.pem");
        ca.issue(CertificateRequest.server("etcd0").dns("etcd0")).writePem(cert, key);

        for (EtcdProcess.Binary binary : List.of(EtcdProcess.Binary.REAL_ETCD, EtcdProcess.Binary.OURS)) {
            try (EtcdProcess m = member(binary, cert, key)) {
                m.startUntilReadyLine();
                assertTrue(m.isAlive(), binary + " started: " + m.logTail());
                ManagedChannel named = dial(m, caFile, "etcd0");
                ManagedChannel byAddress = dial(m, caFile, null);
                try {
                    assertTrue(revision(named) >= 1, binary + " serves a client that dials the certificate's name");
                    StatusRuntimeException refused = assertThrows(StatusRuntimeException.class, () -> revision(byAddress));
                    assertEquals(Status.Code.UNAVAILABLE, refused.getStatus().getCode(), refused.toString());
                } finally {
                    named.shutdownNow();
                    byAddress.shutdownNow();
                }
                if (binary == EtcdProcess.Binary.OURS) {
                    String log = Files.readString(m.logFile());
                    assertTrue(log.contains("client certificate does not name the host of --advertise-client-urls")
                            && log.contains("x509: certificate is valid for etcd0, not 127.0.0.1"), log);
                }
            }
        }
    }
}
