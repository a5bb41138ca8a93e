package io.etcdj.server.tls;

import io.etcdj.certs.CertsException;
import io.etcdj.certs.SelfSignedTls;
import io.etcdj.certs.TlsFiles;
import io.etcdj.certs.TlsPurpose;
import io.etcdj.server.config.ConfigException;
import io.etcdj.server.config.ServerConfig;
import io.etcdj.server.config.TransportSecurity;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;

/**
 * Decides, from the flags, which files the client side and the peer side use: the given
 * certificate, or with auto TLS the self-signed one under {@code <data-dir>/fixtures/client} or
 * {@code fixtures/peer}, as etcd keeps them. Only {@link #generating} creates those files; the
 * plain form just names them (they exist once the member has started).
 */
public final class TlsSides {
    private final ServerConfig cfg;
    private final boolean generate;

    private TlsSides(ServerConfig cfg, boolean generate) {
        this.cfg = cfg;
        this.generate = generate;
    }

    /** Resolves files and creates missing self-signed ones (start-up). */
    public static TlsSides generating(ServerConfig cfg) {
        return new TlsSides(cfg, true);
    }

    /** Resolves files without creating any. */
    public static TlsSides of(ServerConfig cfg) {
        return new TlsSides(cfg, false);
    }

    /** https, or unixs (TLS over a unix socket). */
    public static boolean isHttps(URI url) {
        return "https".equalsIgnoreCase(url.getScheme()) || "unixs".equalsIgnoreCase(url.getScheme());
    }

    static List<URI> https(List<URI> urls) {
        return urls.stream().filter(TlsSides::isHttps).toList();
    }

    /** The client side when some --listen-client-urls is https; null when all are http. */
    public SideTls client() throws ConfigException {
        List<URI> secure = https(cfg.listenClientUrls());
        if (secure.isEmpty()) {
            return null;
        }
        TransportSecurity sec = cfg.clientSecurity();
        if (sec.hasCertificate()) {
            // --client-cert-file/--client-key-file: loaded and checked here, as etcd loads them with the
            // server's pair; no connection presents them, the gateway reaches the services in-process
            return new SideTls(files(sec.certFile(), sec.keyFile(), sec.trustedCaFile()), sec.verifiesClients(), false, sec.checks(),
                    dialFiles(sec));
        }
        if (sec.autoTls()) {
            TlsFiles own = selfSigned("client", cfg.listenClientUrls(), TlsPurpose.SERVER);
            return new SideTls(files(own.certFile(), own.keyFile(), sec.trustedCaFile()), sec.verifiesClients(), true, sec.checks());
        }
        throw new ConfigException("TLS key/cert (--cert-file, --key-file) must be provided for client url "
                + secure.get(0) + " with HTTPS scheme");
    }

    /**
     * The peer side's files, used both to serve https peer URLs and as the client certificate
     * when dialing https peers; null when neither a certificate nor --peer-auto-tls is given.
     */
    public SideTls peer() throws ConfigException {
        TransportSecurity sec = cfg.peerSecurity();
        if (sec.hasCertificate()) {
            // as etcd, the client pair is used (and checked) only with a peer certificate of its own
            return new SideTls(files(sec.certFile(), sec.keyFile(), sec.trustedCaFile()), sec.verifiesClients(), false, sec.checks(),
                    dialFiles(sec));
        }
        if (sec.autoTls()) {
            TlsFiles own = selfSigned("peer", cfg.listenPeerUrls(), TlsPurpose.PEER);
            return new SideTls(files(own.certFile(), own.keyFile(), sec.trustedCaFile()), sec.verifiesClients(), true, sec.checks());
        }
        return null;
    }

    /** As {@link #peer()}, but an https --listen-peer-urls without peer material is an error (etcd's text). */
    public SideTls peerForListening() throws ConfigException {
        SideTls side = peer();
        List<URI> secure = https(cfg.listenPeerUrls());
        if (side == null && !secure.isEmpty()) {
            URI u = secure.get(0);
            throw new ConfigException("cannot listen on TLS for " + u.getHost() + ":" + u.getPort()
                    + ": KeyFile and CertFile are not presented");
        }
        return secure.isEmpty() ? null : side;
    }

    private TlsFiles selfSigned(String kind, List<URI> listenUrls, TlsPurpose purpose) throws ConfigException {
        Path dir = cfg.dataDir().resolve("fixtures").resolve(kind);
        if (!generate) {
            return files(dir.resolve(SelfSignedTls.CERT_FILE), dir.resolve(SelfSignedTls.KEY_FILE), null);
        }
        try {
            return SelfSignedTls.ensure(dir, listenUrls.stream().map(URI::toString).toList(),
                    cfg.tlsOptions().selfSignedCertValidityYears(), purpose);
        } catch (CertsException e) {
            throw new ConfigException("cannot create self-signed " + kind + " certificate in " + dir + ": " + e.getMessage());
        }
    }

    private static TlsFiles dialFiles(TransportSecurity sec) throws ConfigException {
        return sec.dialCertFile() == null && sec.dialKeyFile() == null ? null
                : files(sec.dialCertFile(), sec.dialKeyFile(), sec.trustedCaFile());
    }

    private static TlsFiles files(Path cert, Path key, Path trustedCa) throws ConfigException {
        try {
            return new TlsFiles(cert, key, trustedCa);
        } catch (CertsException e) {
            throw new ConfigException(e.getMessage());
        }
    }
}
