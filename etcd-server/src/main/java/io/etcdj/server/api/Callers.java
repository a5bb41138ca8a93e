package io.etcdj.server.api;

import io.etcdj.server.auth.AuthInfo;
import io.etcdj.serverpb.RequestHeader;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * Who is calling: the interceptor on every client service notes the call's token (gRPC metadata
 * {@code token}, or {@code authorization} as etcd's gateway sends it) and, with
 * {@code --client-cert-auth}, the common name of the verified client certificate; the identity is
 * resolved only when a request needs it, as etcd resolves it from the call's context, so a call
 * that needs none (a member list, a status) never fails on a stale token.
 */
public final class Callers implements ServerInterceptor {
    private static final Metadata.Key<String> TOKEN = Metadata.Key.of("token", Metadata.ASCII_STRING_MARSHALLER);
    private static final Metadata.Key<String> AUTHORIZATION =
            Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
    private static final Context.Key<Caller> CALLER = Context.key("etcd-caller");

    private final AuthOperations auth;
    private final boolean clientCertAuth;

    public Callers(AuthOperations auth, boolean clientCertAuth) {
        this.auth = auth;
        this.clientCertAuth = clientCertAuth;
    }

    /** One call's identity, resolved at most once. */
    private static final class Caller {
        private final AuthOperations auth;
        private final String token;
        private final String commonName;
        private volatile AuthInfo resolved;

        Caller(AuthOperations auth, String token, String commonName) {
            this.auth = auth;
            this.token = token;
            this.commonName = commonName;
        }

        AuthInfo info() {
            AuthInfo ai = resolved;
            if (ai == null) {
                ai = auth.authInfo(token, commonName);
                resolved = ai;
            }
            return ai;
        }
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                      ServerCallHandler<Q, R> next) {
        String token = headers.get(TOKEN);
        if (token == null) {
            token = headers.get(AUTHORIZATION);
        }
        String cn = clientCertAuth ? commonName(call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION)) : null;
        if (token == null && cn == null) {
            return next.startCall(call, headers);
        }
        Context ctx = Context.current().withValue(CALLER, new Caller(auth, token, cn));
        return Contexts.interceptCall(ctx, call, headers, next);
    }

    /**
     * The identity of the call this thread serves ({@link AuthInfo#NONE} for an anonymous one);
     * fails with {@code etcdserver: invalid auth token} for a token no member issued or that expired.
     */
    public static AuthInfo current() {
        Caller c = CALLER.get();
        return c == null ? AuthInfo.NONE : c.info();
    }

    /** The current caller as the header of a request proposed through Raft. */
    public static RequestHeader header() {
        AuthInfo ai = current();
        return RequestHeader.newBuilder().setUsername(ai.username()).setAuthRevision(ai.revision()).build();
    }

    static String commonName(SSLSession session) {
        if (session == null) {
            return null;
        }
        try {
            Certificate[] chain = session.getPeerCertificates();
            if (chain.length == 0 || !(chain[0] instanceof X509Certificate x)) {
                return null;
            }
            for (Rdn rdn : new LdapName(x.getSubjectX500Principal().getName()).getRdns()) {
                if (rdn.getType().equalsIgnoreCase("CN")) {
                    return rdn.getValue().toString();
                }
            }
            return null;
        } catch (SSLPeerUnverifiedException | InvalidNameException e) {
            return null;
        }
    }
}
