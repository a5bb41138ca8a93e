package io.etcdj.server.tls;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * etcd's check of a peer's client certificate against the connection it came on (skipped with
 * --peer-skip-client-san-verification): when the certificate names IP addresses or DNS names,
 * the remote IP must be one of those addresses or what one of those names resolves to. A
 * certificate without either, or no certificate, passes.
 */
final class PeerSanCheck {
    private static final int DNS = 2;
    private static final int IP = 7;

    private PeerSanCheck() {
    }

    /** The error etcd gives for the connection, or null when it passes. */
    static String check(SSLSession session, SocketAddress remote) {
        X509Certificate leaf;
        try {
            var certs = session.getPeerCertificates();
            if (certs.length == 0 || !(certs[0] instanceof X509Certificate x)) {
                return null;
            }
            leaf = x;
        } catch (SSLPeerUnverifiedException e) {
            return null;
        }
        if (!(remote instanceof InetSocketAddress inet) || inet.getAddress() == null) {
            return null;
        }
        return check(leaf, inet.getAddress());
    }

    static String check(X509Certificate leaf, InetAddress remote) {
        List<InetAddress> ips = new ArrayList<>();
        List<String> names = new ArrayList<>();
        try {
            var sans = leaf.getSubjectAlternativeNames();
            if (sans != null) {
                for (List<?> san : sans) {
                    int type = (Integer) san.get(0);
                    String value = String.valueOf(san.get(1));
                    if (type == IP) {
                        ips.add(InetAddress.getByName(value));
                    } else if (type == DNS) {
                        names.add(value);
                    }
                }
            }
        } catch (CertificateParsingException | UnknownHostException e) {
            return "x509: " + e.getMessage();
        }
        if (ips.isEmpty() && names.isEmpty()) {
            return null;
        }
        String host = remote.getHostAddress();
        String ipError = null;
        if (!ips.isEmpty()) {
            if (ips.contains(remote)) {
                return null;
            }
            ipError = "x509: certificate is valid for " + ips.stream().map(InetAddress::getHostAddress).collect(Collectors.joining(", "))
                    + ", not " + host;
            if (names.isEmpty()) {
                return ipError;
            }
        }
        for (String name : names) {
            try {
                for (InetAddress a : InetAddress.getAllByName(name)) {
                    if (a.equals(remote)) {
                        return null;
                    }
                }
            } catch (UnknownHostException e) {
                // not this name; Go goes on with the next one too
            }
        }
        return "tls: \"" + host + "\" does not match any of DNSNames "
                + names.stream().map(n -> "\"" + n + "\"").collect(Collectors.joining(" ", "[", "]"));
    }
}
