package io.etcdj.certs;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * All certificates a local TLS cluster needs, written into one directory with the file names of
 * etcd's hack/tls-setup: {@code ca.pem}, per member {@code NAME.pem} (server, see {@link #memberServer}) and
 * {@code peer-NAME.pem} (peer), each with its {@code -key.pem}, and {@code client.pem}.
 *
 * <pre>{@code
 * ClusterTlsLayout layout = ClusterCertificates.forMembers(List.of(
 *         new ClusterCertificates.Member("infra0", List.of("127.0.0.1", "localhost"))))
 *     .client("root").writeTo(dir);
 * layout.server("infra0");   // TlsFiles for --cert-file/--key-file/--trusted-ca-file
 * }</pre>
 */
public final class ClusterCertificates {
    private static final Pattern FILE_SAFE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

    /** A member and the hosts (IPs, DNS names) its certificates must be valid for. */
    public record Member(String name, List<String> hosts) {
        public Member {
            if (name == null || !FILE_SAFE_NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("invalid member name \"" + name
                        + "\" (use letters, digits, '.', '_' and '-')");
            }
            hosts = List.copyOf(hosts);
        }
    }

    private final List<Member> members;
    private final String clientName;
    private final String caName;
    private final KeySpec keySpec;
    private final Duration validity;
    private final KeyFormat keyFormat;

    private ClusterCertificates(List<Member> members, String clientName, String caName, KeySpec keySpec,
            Duration validity, KeyFormat keyFormat) {
        if (members.isEmpty()) {
            throw new IllegalArgumentException("at least one member is required");
        }
        Set<String> seen = new HashSet<>();
        for (Member member : members) {
            if (member.name().equals("ca") || member.name().equals("client")) {
                // Their files would overwrite ca.pem or client.pem.
                throw new IllegalArgumentException("member name \"" + member.name() + "\" is reserved (ca.pem, client.pem)");
            }
            if (!seen.add(member.name())) {
                throw new IllegalArgumentException("member \"" + member.name() + "\" is listed twice");
            }
        }
        this.members = List.copyOf(members);
        this.clientName = clientName;
        this.caName = caName;
        this.keySpec = keySpec;
        this.validity = validity;
        this.keyFormat = keyFormat;
    }

    public static ClusterCertificates forMembers(List<Member> members) {
        return new ClusterCertificates(members, "root", "etcd-ca", KeySpec.DEFAULT, CertificateRequest.DEFAULT_VALIDITY,
                KeyFormat.PKCS8);
    }

    /** Common name of the client certificate: the etcd user under --client-cert-auth. */
    public ClusterCertificates client(String value) {
        return new ClusterCertificates(members, value, caName, keySpec, validity, keyFormat);
    }

    public ClusterCertificates caName(String value) {
        return new ClusterCertificates(members, clientName, value, keySpec, validity, keyFormat);
    }

    public ClusterCertificates keySpec(KeySpec value) {
        return new ClusterCertificates(members, clientName, caName, value, validity, keyFormat);
    }

    /** Validity of the member and client certificates; the CA lives five times as long. */
    public ClusterCertificates validity(Duration value) {
        return new ClusterCertificates(members, clientName, caName, keySpec, value, keyFormat);
    }

    public ClusterCertificates keyFormat(KeyFormat value) {
        return new ClusterCertificates(members, clientName, caName, keySpec, validity, value);
    }

    /** Creates a new CA and every certificate, and writes them into {@code directory}. */
    public ClusterTlsLayout writeTo(Path directory) {
        CertificateAuthority ca = CertificateAuthority.create(
                CertificateRequest.ca(caName).keySpec(keySpec).validity(validity.multipliedBy(5)));
        Path caKey = directory.resolve("ca-key.pem");
        ca.writePem(directory.resolve("ca.pem"), caKey, keyFormat);
        return writeMembers(directory, ca, caKey);
    }

    /**
     * Like {@link #writeTo(Path)} but signs with an existing CA. Only its certificate is copied
     * into {@code directory}: a CA key should live in one place, so the layout's CA key is null.
     */
    public ClusterTlsLayout writeTo(Path directory, CertificateAuthority ca) {
        PemFiles.writePublic(directory.resolve("ca.pem"), ca.certificatePem());
        return writeMembers(directory, ca, null);
    }

    private ClusterTlsLayout writeMembers(Path directory, CertificateAuthority ca, Path caKey) {
        List<Path> written = new ArrayList<>();
        Path caCert = directory.resolve("ca.pem");
        written.add(caCert);
        if (caKey != null) {
            written.add(caKey);
        }
        Map<String, TlsFiles> servers = new LinkedHashMap<>();
        Map<String, TlsFiles> peers = new LinkedHashMap<>();
        for (Member member : members) {
            servers.put(member.name(), write(ca, memberServer(member.name()), member.hosts(),
                    directory, member.name(), caCert, written));
            peers.put(member.name(), write(ca, CertificateRequest.peer(member.name()), member.hosts(),
                    directory, "peer-" + member.name(), caCert, written));
        }
        TlsFiles client = write(ca, CertificateRequest.client(clientName), List.of(), directory, "client", caCert, written);
        return new ClusterTlsLayout(directory, caCert, caKey, servers, peers, client, written);
    }

    /**
     * A member's client-facing certificate. It allows client authentication as well as server
     * authentication because etcd's HTTP/JSON gateway dials the member's own client port with
     * --cert-file; under --client-cert-auth a server-only certificate makes every /v3 gateway call
     * fail with "certificate specifies an incompatible key usage" (seen with etcd 3.4).
     */
    static CertificateRequest memberServer(String name) {
        return CertificateRequest.server(name)
                .extendedKeyUsages(EnumSet.of(ExtendedKeyUsage.SERVER_AUTH, ExtendedKeyUsage.CLIENT_AUTH));
    }

    private TlsFiles write(CertificateAuthority ca, CertificateRequest template, List<String> hosts, Path directory,
            String baseName, Path caCert, List<Path> written) {
        IssuedCertificate issued = ca.issue(template.keySpec(keySpec).validity(validity).hosts(hosts));
        Path cert = directory.resolve(baseName + ".pem");
        Path key = directory.resolve(baseName + "-key.pem");
        issued.writePem(cert, key, keyFormat);
        written.add(cert);
        written.add(key);
        return new TlsFiles(cert, key, caCert);
    }
}
