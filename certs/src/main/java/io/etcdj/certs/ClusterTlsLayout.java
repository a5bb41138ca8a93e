package io.etcdj.certs;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Where {@link ClusterCertificates} put each file. Every {@link TlsFiles} trusts {@code ca.pem}.
 * {@code caKey} is null when the certificates were signed by an existing CA kept elsewhere.
 */
public record ClusterTlsLayout(Path directory, Path caCertificate, Path caKey, Map<String, TlsFiles> servers,
        Map<String, TlsFiles> peers, TlsFiles client, List<Path> writtenFiles) {

    public ClusterTlsLayout {
        servers = Map.copyOf(servers);
        peers = Map.copyOf(peers);
        writtenFiles = List.copyOf(writtenFiles);
    }

    /** --cert-file, --key-file and --trusted-ca-file of a member's client URLs. */
    public TlsFiles server(String member) {
        return require(servers, member);
    }

    /** --peer-cert-file, --peer-key-file and --peer-trusted-ca-file of a member. */
    public TlsFiles peer(String member) {
        return require(peers, member);
    }

    private static TlsFiles require(Map<String, TlsFiles> files, String member) {
        TlsFiles found = files.get(member);
        if (found == null) {
            throw new IllegalArgumentException("no certificates for member \"" + member + "\"");
        }
        return found;
    }
}
