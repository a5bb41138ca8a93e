package io.etcdj.server.tls;

import io.etcdj.server.config.CertChecks;
import io.etcdj.server.config.ConfigException;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.security.cert.CRLException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509CRL;
import java.security.cert.X509CRLEntry;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.security.auth.x500.X500Principal;

/**
 * The trusted CA's verification of client certificates, then etcd's extra checks: no certificate
 * of the chain is on the revocation list (read again for every connection, as etcd does, so a new
 * list takes effect without a restart), and the leaf certificate carries one of the allowed
 * common names or is valid for one of the allowed host names (its subject alternative names; Go
 * no longer falls back to the common name). Failures read as etcd's.
 */
final class CertCheckingTrustManager extends X509ExtendedTrustManager {
    private final X509ExtendedTrustManager ca;
    private final CertChecks checks;

    CertCheckingTrustManager(X509ExtendedTrustManager ca, CertChecks checks) {
        this.ca = ca;
        this.checks = checks;
    }

    /** Fails at start-up, in one line, when the revocation list cannot be read. */
    static void checkReadable(CertChecks checks) throws ConfigException {
        if (checks.crlFile() != null) {
            try {
                readCrl(checks);
            } catch (CertificateException e) {
                throw new ConfigException(e.getMessage());
            }
        }
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
        ca.checkClientTrusted(chain, authType, socket);
        check(chain);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
        ca.checkClientTrusted(chain, authType, engine);
        check(chain);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        ca.checkClientTrusted(chain, authType);
        check(chain);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
        ca.checkServerTrusted(chain, authType, socket);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
        ca.checkServerTrusted(chain, authType, engine);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        ca.checkServerTrusted(chain, authType);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return ca.getAcceptedIssuers();
    }

    void check(X509Certificate[] chain) throws CertificateException {
        if (checks.crlFile() != null) {
            X509CRL crl = readCrl(checks);
            for (X509Certificate c : chain) {
                X509CRLEntry revoked = crl.getRevokedCertificate(c.getSerialNumber());
                if (revoked != null) {
                    throw new CertificateException("transport: certificate serial "
                            + HexFormat.of().formatHex(magnitude(c.getSerialNumber())) + " revoked");
                }
            }
        }
        if (checks.allowedCns().isEmpty() && checks.allowedHostnames().isEmpty()) {
            return;
        }
        X509Certificate leaf = chain[0];
        String cn = commonName(leaf.getSubjectX500Principal());
        if (cn != null && checks.allowedCns().contains(cn)) {
            return;
        }
        for (String host : checks.allowedHostnames()) {
            if (validFor(leaf, host)) {
                return;
            }
        }
        throw new CertificateException("client certificate authentication failed");
    }

    private static X509CRL readCrl(CertChecks checks) throws CertificateException {
        try (InputStream in = Files.newInputStream(checks.crlFile())) {
            return (X509CRL) CertificateFactory.getInstance("X.509").generateCRL(in);
        } catch (NoSuchFileException e) {
            throw new CertificateException("open " + checks.crlFile() + ": no such file or directory");
        } catch (IOException e) {
            throw new CertificateException("open " + checks.crlFile() + ": " + e.getMessage());
        } catch (CRLException e) {
            throw new CertificateException(checks.crlFile() + ": not a certificate revocation list: " + e.getMessage());
        }
    }

    /** Go prints the serial's big-endian bytes without a sign byte. */
    private static byte[] magnitude(BigInteger serial) {
        byte[] b = serial.toByteArray();
        return b.length > 1 && b[0] == 0 ? Arrays.copyOfRange(b, 1, b.length) : b;
    }

    private static String commonName(X500Principal subject) {
        try {
            for (Rdn rdn : new LdapName(subject.getName()).getRdns()) {
                if (rdn.getType().equalsIgnoreCase("CN")) {
                    return String.valueOf(rdn.getValue());
                }
            }
        } catch (InvalidNameException e) {
            return null;
        }
        return null;
    }

    /** Go's VerifyHostname: an IP must be among the IP SANs, a name match a DNS SAN (one leading wildcard label). */
    static boolean validFor(X509Certificate cert, String host) throws CertificateParsingException {
        var sans = cert.getSubjectAlternativeNames();
        if (sans == null) {
            return false;
        }
        boolean ip = host.matches("[0-9.]+") || host.contains(":");
        for (List<?> san : sans) {
            int type = (Integer) san.get(0);
            String value = String.valueOf(san.get(1));
            if (ip && type == 7 && sameAddress(value, host)) {
                return true;
            }
            if (!ip && type == 2 && dnsMatch(value, host)) {
                return true;
            }
        }
        return false;
    }

    private static boolean sameAddress(String a, String b) {
        try {
            return InetAddress.getByName(a).equals(InetAddress.getByName(b));
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean dnsMatch(String pattern, String host) {
        String p = pattern.toLowerCase(Locale.ROOT);
        String h = host.toLowerCase(Locale.ROOT);
        if (h.endsWith(".")) {
            h = h.substring(0, h.length() - 1);
        }
        if (p.startsWith("*.")) {
            int dot = h.indexOf('.');
            return dot > 0 && h.substring(dot).equals(p.substring(1));
        }
        return p.equals(h);
    }
}
