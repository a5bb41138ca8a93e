package io.etcdj.client;

import java.net.URI;

/**
 * One client endpoint as etcd writes it: {@code host:port}, {@code http://host:port} or
 * {@code https://host:port}. An {@code https} scheme asks for TLS even without other TLS options.
 */
public record Endpoint(String original, String host, int port, boolean secure) {

    /** Parses an endpoint; a missing port defaults to etcd's client port 2379. */
    public static Endpoint parse(String text) {
        String s = text.trim();
        boolean secure = false;
        if (s.startsWith("https://") || s.startsWith("unixs://")) {
            secure = true;
        }
        String hostPort = s;
        int schemeEnd = s.indexOf("://");
        if (schemeEnd >= 0) {
            URI uri = URI.create(s);
            if (uri.getHost() == null) {
                throw new IllegalArgumentException("invalid endpoint " + text);
            }
            int port = uri.getPort() < 0 ? 2379 : uri.getPort();
            return new Endpoint(text, uri.getHost(), port, secure);
        }
        int colon = hostPort.lastIndexOf(':');
        if (colon < 0) {
            return new Endpoint(text, hostPort, 2379, false);
        }
        String host = hostPort.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(hostPort.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("invalid endpoint " + text, e);
        }
        return new Endpoint(text, host, port, false);
    }

    /** host:port, the gRPC authority. */
    public String authority() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
