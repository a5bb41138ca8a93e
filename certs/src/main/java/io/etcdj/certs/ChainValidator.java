package io.etcdj.certs;

import java.security.GeneralSecurityException;
import java.security.InvalidAlgorithmParameterException;
import java.security.cert.CertPath;
import java.security.cert.CertPathValidator;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.PKIXReason;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Collection;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Validates a certificate chain against trusted CA certificates with the JDK's PKIX
 * {@link CertPathValidator}: signatures, validity dates, CA constraints. Revocation is not
 * checked (etcd uses CRL files only when --client-crl-file is given).
 */
public final class ChainValidator {
    private ChainValidator() {
    }

    /** Outcome of a validation: empty problem means the chain is trusted. */
    public record Result(boolean valid, String problem) {
        static final Result OK = new Result(true, "");
    }

    /**
     * @param chain leaf first, then any intermediates
     * @param trusted CA certificates to anchor at
     * @param at the time to validate for
     */
    public static Result validate(List<X509Certificate> chain, Collection<X509Certificate> trusted, Instant at) {
        if (trusted.isEmpty()) {
            return new Result(false, "no trusted CA certificates");
        }
        X509Certificate leaf = chain.get(0);
        if (!at.isBefore(leaf.getNotAfter().toInstant()) || at.isBefore(leaf.getNotBefore().toInstant())) {
            return new Result(false, expired(leaf, at));
        }
        try {
            Set<TrustAnchor> anchors = new HashSet<>();
            trusted.forEach(ca -> anchors.add(new TrustAnchor(ca, null)));
            PKIXParameters parameters = new PKIXParameters(anchors);
            parameters.setRevocationEnabled(false);
            parameters.setDate(Date.from(at));
            CertPath path = CertificateFactory.getInstance("X.509").generateCertPath(withoutAnchors(chain, trusted));
            CertPathValidator.getInstance("PKIX").validate(path, parameters);
            return Result.OK;
        } catch (CertPathValidatorException e) {
            return new Result(false, describe(e, at));
        } catch (InvalidAlgorithmParameterException e) {
            return new Result(false, "invalid trusted CA set: " + PemFiles.reason(e));
        } catch (GeneralSecurityException e) {
            return new Result(false, "cannot validate: " + PemFiles.reason(e));
        }
    }

    /** Go's text, which the real etcd logs for the same problem. */
    public static String expired(X509Certificate certificate, Instant at) {
        Instant notAfter = certificate.getNotAfter().toInstant();
        Instant notBefore = certificate.getNotBefore().toInstant();
        String detail = at.isBefore(notBefore)
                ? "current time " + at + " is before " + notBefore
                : "current time " + at + " is after " + notAfter;
        return "x509: certificate has expired or is not yet valid: " + detail;
    }

    private static List<X509Certificate> withoutAnchors(List<X509Certificate> chain, Collection<X509Certificate> trusted) {
        // A path handed to PKIX must not contain its trust anchor, except a self-signed leaf trusted as is.
        List<X509Certificate> path = chain.stream().filter(c -> !trusted.contains(c)).toList();
        return path.isEmpty() ? List.of(chain.get(0)) : path;
    }

    private static String describe(CertPathValidatorException e, Instant at) {
        CertPathValidatorException.Reason reason = e.getReason();
        if (reason == CertPathValidatorException.BasicReason.EXPIRED
                || reason == CertPathValidatorException.BasicReason.NOT_YET_VALID) {
            if (e.getCertPath() != null && e.getIndex() >= 0) {
                return "CA " + expired((X509Certificate) e.getCertPath().getCertificates().get(e.getIndex()), at);
            }
            return "x509: certificate has expired or is not yet valid";
        }
        if (reason == CertPathValidatorException.BasicReason.INVALID_SIGNATURE
                || reason == CertPathValidatorException.BasicReason.UNSPECIFIED
                || reason == PKIXReason.NO_TRUST_ANCHOR) {
            return "x509: certificate signed by unknown authority";
        }
        return "x509: " + PemFiles.reason(e);
    }
}
