package io.etcdj.launcher.supervisor;

import io.etcdj.launcher.client.ClientTls;
import io.etcdj.launcher.process.TlsFiles;
import io.etcdj.launcher.spec.MemberSpec;

/** Certificates for a TLS cluster: per member, and one client certificate for tools. */
public interface TlsProvider {
    /** Creates (or reuses) the member's server and peer certificates. */
    TlsFiles forMember(MemberSpec member);

    ClientTls client();
}
