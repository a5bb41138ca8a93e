package io.etcdj.certs;

import java.util.Set;

/** What a certificate is used for, and so which extended key usages it must allow. */
public enum TlsPurpose {
    /** --cert-file: the member serves clients. */
    SERVER(Set.of(ExtendedKeyUsage.SERVER_AUTH)),
    /** etcdctl --cert, or a client under --client-cert-auth. */
    CLIENT(Set.of(ExtendedKeyUsage.CLIENT_AUTH)),
    /** --peer-cert-file: members both serve and dial with it. */
    PEER(Set.of(ExtendedKeyUsage.SERVER_AUTH, ExtendedKeyUsage.CLIENT_AUTH));

    private final Set<ExtendedKeyUsage> required;

    TlsPurpose(Set<ExtendedKeyUsage> required) {
        this.required = required;
    }

    public Set<ExtendedKeyUsage> required() {
        return required;
    }
}
