package io.etcdj.server.tls;

import io.etcdj.certs.TlsFiles;
import io.etcdj.server.config.CertChecks;

/**
 * The files one side (client or peer) ends up using and how it treats the other end.
 *
 * @param files the certificate, key and trusted CA file (null: the JDK's default roots)
 * @param verifyClients connecting clients must present a certificate the trusted CA signed
 * @param selfSigned the certificate came from --auto-tls/--peer-auto-tls, so nobody can verify it
 * @param checks revocation list and allowed names for the certificates clients present
 * @param dialFiles the certificate and key presented when dialing this side (--peer-client-cert-file,
 *                  --peer-client-key-file); null: {@code files}'
 */
public record SideTls(TlsFiles files, boolean verifyClients, boolean selfSigned, CertChecks checks,
                      TlsFiles dialFiles) {

    public SideTls(TlsFiles files, boolean verifyClients, boolean selfSigned, CertChecks checks) {
        this(files, verifyClients, selfSigned, checks, null);
    }

    /** The pair to present when dialing: the dedicated client pair, or the side's own. */
    public TlsFiles dialing() {
        return dialFiles != null ? dialFiles : files;
    }
}
