package io.etcdj.server.api;

import io.etcdj.server.auth.AuthInfo;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Deadline;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
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
    private static final Context.Key<Credentials> CREDENTIALS = Context.key("etcd-credentials");

    private final AuthOperations auth;
    private final boolean clientCertAuth;

    public Callers(AuthOperations auth, boolean clientCertAuth) {
        this.auth = auth;
        this.clientCertAuth = clientCertAuth;
    }

    /** One call's credentials, resolved to an identity at most once. */
    private static final class Credentials {
        private final AuthOperations auth;
        private final String token;
        private final String commonName;
        private volatile AuthInfo resolved;

        Credentials(AuthOperations auth, String token, String commonName) {
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
        Context ctx = Context.current().withValue(CREDENTIALS, new Credentials(auth, token, cn));
        return Contexts.interceptCall(ctx, call, headers, next);
    }

    /**
     * The identity of the call this thread serves ({@link AuthInfo#NONE} for an anonymous one);
     * fails with {@code etcdserver: invalid auth token} for a token no member issued or that expired.
     */
    public static AuthInfo current() {
        Credentials c = CREDENTIALS.get();
        return c == null ? AuthInfo.NONE : c.info();
    }

    /**
     * The caller of the call this thread serves: its identity ({@link #current()}, with its
     * failure) and the time left before its deadline.
     */
    public static Caller caller() {
        return deferred().get();
    }

    /**
     * The caller of the call this thread serves, resolved when first asked for, from any thread:
     * for work a call starts and continues in callbacks (the Lock and Election recipes), so that
     * a call resolves its token only when a request needs it, and its remaining time is measured
     * when each request is made.
     */
    static Supplier<Caller> deferred() {
        Credentials c = CREDENTIALS.get();
        Deadline deadline = Context.current().getDeadline();
        return () -> new Caller(c == null ? AuthInfo.NONE : c.info(),
                deadline == null ? Caller.NO_DEADLINE : deadline.timeRemaining(TimeUnit.NANOSECONDS));
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
