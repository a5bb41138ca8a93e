package io.etcdj.ctl.command;

import io.etcdj.cli.CliException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;

/**
 * The check etcd's Go client makes on peer URLs before {@code member add} and {@code member update}
 * send them ("fail-fast before panic in rafthttp", types.NewURLs), with its texts; a failure is
 * etcdctl's plain error (exit 1) and nothing is sent.
 */
final class PeerUrls {
    private PeerUrls() {
    }

    static void check(List<String> urls) {
        for (String raw : urls) {
            String in = raw.trim();
            URI u;
            try {
                u = new URI(in);
            } catch (URISyntaxException e) {
                throw CliException.error("parse " + in + ": " + e.getReason());
            }
            String scheme = u.getScheme() == null ? "" : u.getScheme();
            switch (scheme) {
                case "http", "https" -> {
                    if (!hasPort(u.getRawAuthority())) {
                        throw CliException.error("URL address does not have the form \"host:port\": " + in);
                    }
                }
                case "unix", "unixs" -> {
                    // a socket name: no port needed
                }
                default -> throw CliException.error("URL scheme must be http, https, unix, or unixs: " + in);
            }
            if (u.getRawPath() != null && !u.getRawPath().isEmpty()) {
                throw CliException.error("URL must not contain a path: " + in);
            }
        }
    }

    /** Whether Go's net.SplitHostPort accepts {@code hostPort}: a port after the last colon, IPv6 in brackets. */
    private static boolean hasPort(String hostPort) {
        if (hostPort == null) {
            return false;
        }
        if (hostPort.startsWith("[")) {
            int close = hostPort.indexOf(']');
            return close > 0 && close + 1 < hostPort.length() && hostPort.charAt(close + 1) == ':'
                    && hostPort.indexOf(':', close + 2) < 0;
        }
        int colon = hostPort.lastIndexOf(':');
        return colon >= 0 && hostPort.indexOf(':') == colon;
    }
}
