package io.etcdj.embedded;

import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Asks one member over its client URL what a user's probe would: {@code /health}, and the
 * gateway's {@code /v3/maintenance/status} for its member ID and the leader it knows.
 */
final class HealthProbe {
    private static final Pattern MEMBER_ID = Pattern.compile("\"member_id\"\\s*:\\s*\"(\\d+)\"");
    private static final Pattern LEADER = Pattern.compile("\"leader\"\\s*:\\s*\"(\\d+)\"");

    private final URI clientUrl;
    private final HttpClient http;

    HealthProbe(URI clientUrl) {
        this.clientUrl = clientUrl;
        HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1));
        if ("https".equals(clientUrl.getScheme())) {
            b.sslContext(trustingMembersOfThisJvm());
        }
        this.http = b.build();
    }

    /**
     * The probe reads only /health and the status of a member this JVM started on 127.0.0.1, whose
     * certificate may come from the project (any CA) or from the run: it does not check it.
     */
    private static SSLContext trustingMembersOfThisJvm() {
        // an extended trust manager: the JDK then adds no host name check of its own
        X509ExtendedTrustManager any = new X509ExtendedTrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
            }

            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        };
        try {
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, new TrustManager[] {any}, null);
            return ctx;
        } catch (GeneralSecurityException e) {
            throw new EtcdClusterException("cannot make a TLS context for the health probe: " + e.getMessage(), e);
        }
    }

    /** Whether {@code /health} answers {@code "health":"true"} (the member has a leader and no alarm). */
    boolean healthy() {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(clientUrl.resolve("/health"))
                    .timeout(Duration.ofSeconds(2)).GET().build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 && r.body().replace(" ", "").contains("\"health\":\"true\"");
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** This member's ID and the leader it knows (0 for none), or null when it does not answer. */
    long[] memberAndLeader() {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(clientUrl.resolve("/v3/maintenance/status"))
                    .timeout(Duration.ofSeconds(2)).POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            Matcher id = MEMBER_ID.matcher(r.body());
            if (r.statusCode() != 200 || !id.find()) {
                return null;
            }
            Matcher leader = LEADER.matcher(r.body());
            return new long[] {Long.parseUnsignedLong(id.group(1)), leader.find() ? Long.parseUnsignedLong(leader.group(1)) : 0};
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
