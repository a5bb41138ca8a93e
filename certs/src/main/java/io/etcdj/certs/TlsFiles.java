package io.etcdj.certs;

import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The three files of one TLS endpoint, as etcd's flags name them: {@code --cert-file},
 * {@code --key-file}, {@code --trusted-ca-file} (or etcdctl's {@code --cert --key --cacert}).
 * {@code trustedCaFile} may be null: then the JDK's default trust store is used.
 *
 * <p>Turns them into {@code javax.net.ssl} material; Netty users pass the factories to
 * {@code SslContextBuilder.forServer(keyManagerFactory()).trustManager(trustManagerFactory())}.
 */
public record TlsFiles(Path certFile, Path keyFile, Path trustedCaFile) {

    private static final char[] IN_MEMORY_PASSWORD = "etcdj".toCharArray();

    public TlsFiles {
        if (certFile == null || keyFile == null) {
            // etcd's own text for a half-configured pair.
            throw new CertsException("KeyFile and CertFile must both be present[key: "
                    + (keyFile == null ? "" : keyFile) + ", cert: " + (certFile == null ? "" : certFile) + "]");
        }
    }

    /** The certificate chain in {@link #certFile}, leaf first. */
    public List<X509Certificate> certificateChain() {
        return PemFiles.readCertificates(certFile);
    }

    public PrivateKey privateKey() {
        return PemFiles.readPrivateKey(keyFile);
    }

    /** The CA certificates in {@link #trustedCaFile}; empty when there is none. */
    public List<X509Certificate> trustedCertificates() {
        return trustedCaFile == null ? List.of() : PemFiles.readCertificates(trustedCaFile);
    }

    /** A key manager for the certificate and key; fails with the file named if they do not match. */
    public KeyManagerFactory keyManagerFactory() {
        List<X509Certificate> chain = certificateChain();
        PrivateKey key = privateKey();
        if (!KeyMatch.matches(chain.get(0), key)) {
            throw KeyMatch.mismatch(certFile, keyFile);
        }
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry("key", key, IN_MEMORY_PASSWORD, chain.toArray(X509Certificate[]::new));
            KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            factory.init(store, IN_MEMORY_PASSWORD);
            return factory;
        } catch (GeneralSecurityException | IOException e) {
            throw new TlsMaterialException(certFile, "cannot build key manager: " + PemFiles.reason(e));
        }
    }

    /** A trust manager for {@link #trustedCaFile}, or the JDK's defaults when there is none. */
    public TrustManagerFactory trustManagerFactory() {
        try {
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            if (trustedCaFile == null) {
                factory.init((KeyStore) null);
                return factory;
            }
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            int index = 0;
            for (X509Certificate ca : trustedCertificates()) {
                store.setCertificateEntry("ca-" + index++, ca);
            }
            factory.init(store);
            return factory;
        } catch (GeneralSecurityException | IOException e) {
            throw new TlsMaterialException(trustedCaFile, "cannot build trust manager: " + PemFiles.reason(e));
        }
    }

    /** A ready {@code SSLContext} (protocol "TLS") with both managers, for plain JDK sockets. */
    public SSLContext sslContext() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keyManagerFactory().getKeyManagers(), trustManagerFactory().getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new TlsMaterialException(certFile, "cannot build TLS context: " + PemFiles.reason(e));
        }
    }
}
