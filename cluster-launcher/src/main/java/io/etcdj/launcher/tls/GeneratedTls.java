package io.etcdj.launcher.tls;

import io.etcdj.certs.CertificateAuthority;
import io.etcdj.certs.ClusterCertificates;
import io.etcdj.launcher.LauncherException;
import io.etcdj.launcher.client.ClientTls;
import io.etcdj.launcher.process.TlsFiles;
import io.etcdj.launcher.spec.MemberSpec;
import io.etcdj.launcher.supervisor.TlsProvider;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Generates a cluster's TLS material on first start and reuses it afterwards, so restarts keep
 * the CA that etcdctl users already trust. A member added later gets certificates signed by the
 * same CA. File names follow etcd's hack/tls-setup: ca.pem, NAME.pem, peer-NAME.pem, client.pem,
 * each key in *-key.pem.
 */
public final class GeneratedTls implements TlsProvider {
    /** The etcd user the client certificate names (its common name), as in etcd's examples. */
    private static final String CLIENT_NAME = "root";

    private final Path dir;

    public GeneratedTls(Path dir, List<MemberSpec> founders) {
        this.dir = dir;
        if (!Files.exists(caCert())) {
            generate(() -> {
                Files.createDirectories(dir);
                ClusterCertificates.forMembers(founders.stream().map(GeneratedTls::certMember).toList())
                        .client(CLIENT_NAME).writeTo(dir);
            });
        }
    }

    @Override
    public TlsFiles forMember(MemberSpec member) {
        if (!Files.exists(dir.resolve(member.name() + ".pem"))) {
            generate(() -> ClusterCertificates.forMembers(List.of(certMember(member))).client(CLIENT_NAME)
                    .writeTo(dir, CertificateAuthority.load(caCert(), dir.resolve("ca-key.pem"))));
        }
        return new TlsFiles(caCert(), dir.resolve(member.name() + ".pem"), dir.resolve(member.name() + "-key.pem"),
                dir.resolve("peer-" + member.name() + ".pem"), dir.resolve("peer-" + member.name() + "-key.pem"));
    }

    @Override
    public ClientTls client() {
        return new ClientTls(caCert(), dir.resolve("client.pem"), dir.resolve("client-key.pem"));
    }

    private Path caCert() {
        return dir.resolve("ca.pem");
    }

    /** Valid for loopback under both names, plus every host the member's URLs use. */
    private static ClusterCertificates.Member certMember(MemberSpec m) {
        Set<String> hosts = new LinkedHashSet<>(List.of("127.0.0.1", "localhost"));
        Stream.of(m.clientUrls(), m.listenClientUrls(), m.peerUrls(), m.listenPeerUrls())
                .flatMap(List::stream).map(URI::getHost).forEach(hosts::add);
        try {
            return new ClusterCertificates.Member(m.name(), List.copyOf(hosts));
        } catch (IllegalArgumentException e) {
            throw new LauncherException("cannot make certificates for member \"" + m.name() + "\": " + e.getMessage());
        }
    }

    private interface Step {
        void run() throws IOException;
    }

    private void generate(Step step) {
        try {
            step.run();
        } catch (IOException | RuntimeException e) {
            if (e instanceof LauncherException le) {
                throw le;
            }
            throw new LauncherException("cannot create TLS material in " + dir + ": " + e.getMessage());
        }
    }
}
