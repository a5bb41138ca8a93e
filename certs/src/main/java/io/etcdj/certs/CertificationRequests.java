package io.etcdj.certs;

import java.io.IOException;
import java.security.KeyPair;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.ExtensionsGenerator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequestBuilder;

/**
 * PKCS#10 certificate requests (the {@code NAME.csr} cfssljson writes), built from the same
 * {@link CertificateRequest} a certificate is, so subject and alternative names agree.
 */
public final class CertificationRequests {
    private CertificationRequests() {
    }

    /** A request for {@code keys}, signed by its private key; names go in an extension request. */
    public static PKCS10CertificationRequest create(CertificateRequest request, KeyPair keys) {
        try {
            JcaPKCS10CertificationRequestBuilder builder =
                    new JcaPKCS10CertificationRequestBuilder(CertificateSigner.subjectName(request), keys.getPublic());
            if (request.hasAlternativeNames()) {
                ExtensionsGenerator extensions = new ExtensionsGenerator();
                extensions.addExtension(Extension.subjectAlternativeName, false, CertificateSigner.alternativeNames(request));
                builder.addAttribute(PKCSObjectIdentifiers.pkcs_9_at_extensionRequest, extensions.generate());
            }
            String algorithm = KeySpec.of(keys.getPrivate()).signatureAlgorithm();
            return builder.build(new JcaContentSignerBuilder(algorithm).build(keys.getPrivate()));
        } catch (OperatorCreationException | IOException e) {
            throw new CertsException("cannot build certificate request: " + PemFiles.reason(e), e);
        }
    }
}
