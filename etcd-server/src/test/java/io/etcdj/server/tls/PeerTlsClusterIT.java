package io.etcdj.server.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.certs.CertificateAuthority;
import io.etcdj.certs.CertificateRequest;
import io.etcdj.certs.TlsFiles;
import io.etcdj.harness.Prerequisites;
import io.etcdj.peerpb.MembersRequest;
import io.etcdj.peerpb.MembersResponse;
import io.etcdj.peerpb.PeerGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three members of our server with https peer URLs, --peer-client-cert-auth and certificates from
 * one CA (the `etcd-certs cluster` layout): the cluster forms, replicates, and its peer ports
 * refuse a certificate from another CA. Members dial each other with a dedicated client
 * certificate (--peer-client-cert-file, --peer-client-key-file: CN "root") and accept only that CN
 * (--peer-cert-allowed-cn), so the cluster forms only if the dialing side presents it. A peer
 * client certificate issued for another address than the one it connects from is refused, except
 * by the member started with --peer-skip-client-san-verification.
 */
class PeerTlsClusterIT {
    @TempDir
    Path dir;

    @Test
    void clusterFormsAndReplicatesOverPeerTls() throws Exception {
        TlsFixture pki = TlsFixture.create(dir.resolve("pki"));
        List<TlsMember> members = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                String name = "infra" + i;
                TlsFiles server = pki.layout.server(name);
                TlsFiles peer = pki.layout.peer(name);
                members.add(new TlsMember(name, dir.resolve(name), true, true)
                        .set("cert-file", server.certFile()).set("key-file", server.keyFile())
                        .set("client-cert-auth", true).set("trusted-ca-file", pki.ca())
                        .set("peer-cert-file", peer.certFile()).set("peer-key-file", peer.keyFile())
                        .set("peer-client-cert-auth", true).set("peer-trusted-ca-file", pki.ca())
                        .set("peer-client-cert-file", pki.layout.client().certFile())
                        .set("peer-client-key-file", pki.layout.client().keyFile())
                        .set("peer-cert-allowed-cn", "root"));
            }
            members.get(2).set("peer-skip-client-san-verification", true);
            String cluster = members.stream().map(m -> m.name + "=" + m.peerUrl(true)).collect(Collectors.joining(","));
            members.forEach(m -> m.set("initial-cluster", cluster));
            TlsMember.startAll(members);

            TlsFiles client = pki.layout.client();
            ManagedChannel first = TlsClients.grpc(members.get(0).endpoint(), pki.ca(), client);
            ManagedChannel last = TlsClients.grpc(members.get(2).endpoint(), pki.ca(), client);
            try {
                TlsClients.put(first, "replicated", "over-peer-tls");
                assertEquals("over-peer-tls", TlsClients.get(last, "replicated"));
            } finally {
                TlsClients.close(first);
                TlsClients.close(last);
            }

            // /health does a linearizable read; on followers it needs the leader over peer TLS
            HttpClient http = TlsClients.https(pki.ca(), client);
            for (TlsMember m : members) {
                for (int i = 0; i < 3; i++) {
                    var health = TlsClients.httpGet(http, m.https("/health"));
                    assertEquals(200, health.statusCode(), m.name + ": " + health.body());
                }
            }

            assertEquals(3, askMembers(members.get(1), pki.layout.client(), pki.ca()).getMembersCount(),
                    "the peer client certificate (CN root) is accepted");
            assertThrows(StatusRuntimeException.class, () -> askMembers(members.get(1), pki.layout.peer("infra0"), pki.ca()),
                    "a peer certificate whose CN is not --peer-cert-allowed-cn is refused");
            StatusRuntimeException refused = assertThrows(StatusRuntimeException.class,
                    () -> askMembers(members.get(1), pki.roguePeer, pki.ca()));
            assertTrue(refused.getStatus().getCode() == Status.Code.UNAVAILABLE, refused.toString());

            // etcd's SAN check on peer client certificates: CN root from the right CA, but issued for
            // 10.0.1.10 while it connects from 127.0.0.1
            CertificateAuthority ca = CertificateAuthority.load(pki.layout.caCertificate(),
                    pki.layout.caKey());
            Path pem = dir.resolve("root-elsewhere.pem");
            Path key = dir.resolve("root-elsewhere-key.pem");
            ca.issue(CertificateRequest.client("root").ip("10.0.1.10")).writePem(pem, key);
            TlsFiles elsewhere = new TlsFiles(pem, key, pki.ca());
            StatusRuntimeException san = assertThrows(StatusRuntimeException.class, () -> askMembers(members.get(1), elsewhere, pki.ca()),
                    "a peer client certificate that does not name the address it comes from is refused");
            assertEquals(Status.Code.UNAVAILABLE, san.getStatus().getCode(), san.toString());
            assertEquals(3, askMembers(members.get(2), elsewhere, pki.ca()).getMembersCount(),
                    "--peer-skip-client-san-verification accepts it");

            Prerequisites.requireExecutable(TlsClients.ETCDCTL, "etcd-client");
            TlsClients.Result status = TlsClients.etcdctl(members.get(1).endpoint(), pki.ca(), client,
                    "--endpoints", members.stream().map(m -> "https://" + m.endpoint()).collect(Collectors.joining(",")),
                    "endpoint", "status");
            assertEquals(0, status.exitCode(), status.output());
            // etcdctl lists the first endpoint twice (the helper's --endpoints and this one): count distinct rows
            assertEquals(1, status.output().lines().filter(l -> l.contains(", true, false,")).distinct().count(),
                    "exactly one leader:\n" + status.output());
        } finally {
            members.forEach(TlsMember::close);
        }
    }

    /** The peer service's member list, asked with the given certificate as client certificate. */
    private static MembersResponse askMembers(TlsMember target, TlsFiles as, Path ca) throws Exception {
        ManagedChannel ch = TlsClients.grpc("127.0.0.1:" + target.peerPort, ca, as);
        try {
            return PeerGrpc.newBlockingStub(ch).withDeadlineAfter(10, TimeUnit.SECONDS)
                    .members(MembersRequest.getDefaultInstance());
        } finally {
            TlsClients.close(ch);
        }
    }
}
