package io.etcdj.server.tls;

import io.etcdj.certs.IssuedCertificate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.Date;
import org.bouncycastle.asn1.x509.CRLReason;
import org.bouncycastle.cert.X509v2CRLBuilder;
import org.bouncycastle.cert.jcajce.JcaX509v2CRLBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** Writes a PEM certificate revocation list, signed by a CA, revoking the given certificates. */
final class CrlFixture {
    private CrlFixture() {
    }

    static void write(Path file, IssuedCertificate ca, X509Certificate... revoked) throws IOException {
        X509v2CRLBuilder b = new JcaX509v2CRLBuilder(ca.certificate().getSubjectX500Principal(), new Date());
        for (X509Certificate c : revoked) {
            b.addCRLEntry(c.getSerialNumber(), new Date(), CRLReason.keyCompromise);
        }
        String alg = ca.privateKey().getAlgorithm().equals("RSA") ? "SHA256withRSA" : "SHA256withECDSA";
        try {
            byte[] der = b.build(new JcaContentSignerBuilder(alg).build(ca.privateKey())).getEncoded();
            Files.writeString(file, "-----BEGIN X509 CRL-----\n"
                    + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der) + "\n-----END X509 CRL-----\n");
        } catch (OperatorCreationException e) {
            throw new IOException(e);
        }
    }
}
