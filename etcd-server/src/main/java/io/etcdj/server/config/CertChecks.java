package io.etcdj.server.config;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Extra checks on the certificates connecting clients present, beyond the trusted CA: a
 * certificate revocation list ({@code --client-crl-file}, {@code --peer-crl-file}) and the common
 * names or host names one of which the certificate must carry ({@code --peer-cert-allowed-cn},
 * {@code --peer-cert-allowed-hostname}, {@code --client-cert-allowed-hostname}; comma-separated
 * lists, as etcd 3.6 takes them). They apply where client certificates are verified.
 */
public record CertChecks(Path crlFile, List<String> allowedCns, List<String> allowedHostnames) {
    public static final CertChecks NONE = new CertChecks(null, List.of(), List.of());

    public CertChecks {
        allowedCns = List.copyOf(allowedCns);
        allowedHostnames = List.copyOf(allowedHostnames);
    }

    public boolean any() {
        return crlFile != null || !allowedCns.isEmpty() || !allowedHostnames.isEmpty();
    }

    static List<String> list(String flagValue) {
        if (flagValue == null || flagValue.isBlank()) {
            return List.of();
        }
        return Arrays.stream(flagValue.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }
}
