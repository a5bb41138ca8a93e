package io.etcdj.server.tls;

import io.etcdj.certs.CertsException;
import io.etcdj.certs.ChainValidator;
import io.etcdj.certs.CheckedTlsMaterial;
import io.etcdj.certs.TlsMaterialCheck;
import io.etcdj.certs.TlsPurpose;
import io.etcdj.server.config.ConfigException;
import io.etcdj.server.config.ServerConfig;
import io.etcdj.server.config.TransportSecurity;
import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import java.net.URI;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks the member's TLS material before anything listens, so that a missing or unreadable
 * file, a key that does not match its certificate, an expired certificate, a certificate that
 * lacks the needed usage or address, or a peer certificate the peer CA did not sign stops the
 * member with one line naming the file, instead of failing handshakes later.
 *
 * <p>What is required of each side:
 * <ul>
 *   <li>client side: "server auth" usage. SANs that do not cover the hosts of the https
 *       --advertise-client-urls only earn a warning, as etcd starts with such a certificate
 *       (clients may dial another name); so does a --trusted-ca-file that did not sign the server
 *       certificate: it names the CA of the clients, which may differ from the server's.
 *   <li>peer side: "server auth" usage, plus "client auth" when peers must present certificates
 *       (members dial each other with the same certificate); SANs covering the https
 *       --initial-advertise-peer-urls; and, with --peer-trusted-ca-file, a chain to that CA, since
 *       the other members check this certificate against the same file.
 * </ul>
 * Self-signed (auto TLS) certificates are only checked for readability, dates and key match.
 */
public final class TlsStartupCheck {
    /** The member's logger (its sink, see MemberContext). */
    private final Log log;

    private final ServerConfig cfg;
    private final Clock clock;

    public TlsStartupCheck(ServerConfig cfg, Clock clock, LogSink logs) {
        this.log = logs.logger("embed/etcd");
        this.cfg = cfg;
        this.clock = clock;
    }

    /** Resolves (creating self-signed files if asked), checks, logs what is used; throws on the first problem. */
    public MemberTls run() throws ConfigException {
        warnIgnored();
        TlsSides sides = TlsSides.generating(cfg);
        SideTls client = sides.client();
        SideTls peer = sides.peerForListening();
        SideTls peerDialing = peer != null ? peer : sides.peer();
        if (client != null) {
            checkClientSide(client);
            log.info("configuring client TLS", "cert-file", String.valueOf(client.files().certFile()),
                    "key-file", String.valueOf(client.files().keyFile()),
                    "trusted-ca-file", String.valueOf(client.files().trustedCaFile()),
                    "client-cert-auth", client.verifyClients(), "auto-tls", client.selfSigned());
        }
        if (peerDialing != null) {
            checkPeerSide(peerDialing);
            log.info("configuring peer TLS", "cert-file", String.valueOf(peerDialing.files().certFile()),
                    "key-file", String.valueOf(peerDialing.files().keyFile()),
                    "trusted-ca-file", String.valueOf(peerDialing.files().trustedCaFile()),
                    "client-cert-auth", peerDialing.verifyClients(), "auto-tls", peerDialing.selfSigned());
        }
        TlsContexts contexts = new TlsContexts(cfg.tlsOptions());
        return new MemberTls(
                client == null ? null : contexts.clientPort(client),
                peer == null ? null : contexts.peerServer(peer),
                contexts.peerClient(peerDialing));
    }

    private void checkClientSide(SideTls side) throws ConfigException {
        if (side.dialFiles() != null) {
            // --client-cert-file/--client-key-file: loaded before anything is served, as etcd does
            check(TlsMaterialCheck.of(side.dialFiles()));
        }
        CheckedTlsMaterial material = check(TlsMaterialCheck.of(side.files()).purpose(TlsPurpose.SERVER));
        if (!side.selfSigned()) {
            warnUnnamedHosts(side, material);
        }
        if (!side.selfSigned() && side.files().trustedCaFile() != null) {
            ChainValidator.Result signed = ChainValidator.validate(material.certificateChain(),
                    material.trustedCertificates(), clock.instant());
            if (!signed.valid()) {
                log.warn("client certificate is not signed by --trusted-ca-file; clients that use that file as "
                                + "their CA will refuse the server",
                        "cert-file", side.files().certFile().toString(),
                        "trusted-ca-file", side.files().trustedCaFile().toString(), "error", signed.problem());
            }
        }
    }

    /**
     * A certificate that does not name the hosts of --advertise-client-urls only earns a warning:
     * etcd starts with it (it never dials its own client URLs), and clients that dial another
     * name, or skip the host check, are served.
     */
    private void warnUnnamedHosts(SideTls side, CheckedTlsMaterial material) {
        try {
            TlsMaterialCheck.requireUsableFor(side.files().certFile(), material.certificate(), null,
                    certificateHosts(cfg.advertiseClientUrls()));
        } catch (CertsException e) {
            log.warn("client certificate does not name the host of --advertise-client-urls; clients that check "
                    + "the host name will refuse the server", "cert-file", side.files().certFile().toString(),
                    "error", e.getMessage());
        }
    }

    private void checkPeerSide(SideTls side) throws ConfigException {
        TlsMaterialCheck check = TlsMaterialCheck.of(side.files());
        if (!side.selfSigned()) {
            check = check.purpose(side.verifyClients() ? TlsPurpose.PEER : TlsPurpose.SERVER)
                    .hosts(certificateHosts(cfg.initialAdvertisePeerUrls()))
                    .requireSignedByTrustedCa(true);
        }
        check(check);
    }

    private CheckedTlsMaterial check(TlsMaterialCheck check) throws ConfigException {
        try {
            CheckedTlsMaterial material = check.clock(clock).check();
            material.warnings().forEach(w -> log.warn("TLS certificate warning", "warning", w));
            return material;
        } catch (CertsException e) {
            throw new ConfigException(e.getMessage());
        }
    }

    /** Hosts a client dials, from the https URLs; wildcard addresses name no host. */
    static List<String> certificateHosts(List<URI> urls) {
        Set<String> hosts = new LinkedHashSet<>();
        for (URI u : TlsSides.https(urls)) {
            String host = u.getHost();
            if (host.startsWith("[")) {
                host = host.substring(1, host.length() - 1);
            }
            if (!isUnspecified(host)) {
                hosts.add(host);
            }
        }
        return new ArrayList<>(hosts);
    }

    /** The wildcard addresses; compared as text so that no name is ever resolved here. */
    private static boolean isUnspecified(String host) {
        return switch (host) {
            case "0.0.0.0", "::", "0:0:0:0:0:0:0:0" -> true;
            default -> false;
        };
    }

    /** etcd's warnings for TLS flags that an http URL makes pointless. */
    private void warnIgnored() {
        TransportSecurity client = cfg.clientSecurity();
        for (URI u : cfg.listenClientUrls()) {
            if (!TlsSides.isHttps(u) && client.hasCertificate()) {
                log.warn("scheme is HTTP while key and cert files are present; ignoring key and cert files",
                        "client-url", u.toString());
            }
            if (!TlsSides.isHttps(u) && client.verifiesClients()) {
                log.warn("scheme is HTTP while --client-cert-auth is enabled; ignoring client cert auth for this URL",
                        "client-url", u.toString());
            }
        }
        TransportSecurity peer = cfg.peerSecurity();
        for (URI u : cfg.listenPeerUrls()) {
            if (!TlsSides.isHttps(u) && peer.verifiesClients()) {
                log.warn("scheme is HTTP while --peer-client-cert-auth is enabled; ignoring client cert auth for this URL",
                        "peer-url", u.toString());
            }
        }
        if (client.autoTls() && client.hasCertificate()) {
            log.warn("ignoring client auto TLS since certs given");
        }
        if (peer.autoTls() && peer.hasCertificate()) {
            log.warn("ignoring peer auto TLS since certs given");
        }
    }
}
