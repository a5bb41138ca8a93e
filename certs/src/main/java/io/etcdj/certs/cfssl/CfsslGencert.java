package io.etcdj.certs.cfssl;

import io.etcdj.certs.CertificateAuthority;
import io.etcdj.certs.CertificateRequest;
import io.etcdj.certs.CertificationRequests;
import io.etcdj.certs.IssuedCertificate;
import io.etcdj.certs.KeyUsage;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;

/**
 * The two things {@code cfssl gencert} does: {@code -initca} (a new self-signed CA from a CSR)
 * and signing a new key for a CSR with an existing CA under a signing profile. Each also makes a
 * PKCS#10 request for the new key, which cfssljson saves as {@code NAME.csr}.
 */
public final class CfsslGencert {
    /** cfssl's CA lifetime when the CSR's {@code ca.expiry} is absent ("43800h"). */
    public static final Duration DEFAULT_CA_EXPIRY = Duration.ofHours(43800);

    private CfsslGencert() {
    }

    /** {@code cfssl gencert -initca CSRJSON}. */
    public static CfsslResult initCa(CfsslCsr csr) {
        CertificateRequest request = csr.toRequest(null)
                .keyUsages(EnumSet.of(KeyUsage.KEY_CERT_SIGN, KeyUsage.CRL_SIGN))
                .validity(csr.caExpiry() == null ? DEFAULT_CA_EXPIRY : csr.caExpiry())
                .certificateAuthority(true, csr.caPathLength() == null ? CertificateRequest.UNLIMITED_PATH : csr.caPathLength());
        CertificateAuthority ca = CertificateAuthority.create(request);
        IssuedCertificate issued = ca.asIssued();
        return new CfsslResult(issued, certificationRequest(request, issued.keyPair()));
    }

    /**
     * {@code cfssl gencert -ca CA -ca-key KEY -config CONFIG -profile NAME CSRJSON}.
     *
     * @param hostnames {@code -hostname} override of the CSR's hosts, or null
     */
    public static CfsslResult sign(CfsslCsr csr, CertificateAuthority ca, CfsslProfile profile, List<String> hostnames) {
        CertificateRequest request = profile.apply(csr.toRequest(hostnames));
        KeyPair keys = request.keySpec().generate();
        X509Certificate certificate = ca.sign(request, keys.getPublic());
        IssuedCertificate issued = new IssuedCertificate(certificate, keys.getPrivate(), ca.certificate());
        return new CfsslResult(issued, certificationRequest(request, keys));
    }

    private static PKCS10CertificationRequest certificationRequest(CertificateRequest request,
            KeyPair keys) {
        return CertificationRequests.create(request, keys);
    }
}
