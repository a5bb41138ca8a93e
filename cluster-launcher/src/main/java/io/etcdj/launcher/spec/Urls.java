package io.etcdj.launcher.spec;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;

/** Parsing and checking of the http(s)://host:port URLs etcd flags take. */
public final class Urls {
    private Urls() {}

    /**
     * Parses one URL given on the command line, with the scheme the cluster uses (https when it
     * runs with TLS). Throws IllegalArgumentException with a message for the user.
     */
    public static URI member(String text, String what, boolean tls) {
        try {
            URI u = parse(text, what);
            return tls ? URI.create("https://" + u.getHost() + ":" + u.getPort()) : u;
        } catch (EtcdCommandParser.ParseError e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }

    static List<URI> parseList(String commaSeparated, String what) throws EtcdCommandParser.ParseError {
        List<URI> urls = new ArrayList<>();
        for (String part : commaSeparated.split(",")) {
            if (!part.isBlank()) {
                urls.add(parse(part.trim(), what));
            }
        }
        if (urls.isEmpty()) {
            throw new EtcdCommandParser.ParseError(what + " is empty");
        }
        return urls;
    }

    static URI parse(String text, String what) throws EtcdCommandParser.ParseError {
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            throw new EtcdCommandParser.ParseError(what + ": invalid URL \"" + text + "\"");
        }
        if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
            throw new EtcdCommandParser.ParseError(what + ": URL scheme must be http or https (got \"" + text + "\")");
        }
        if (uri.getHost() == null || uri.getPort() < 0) {
            throw new EtcdCommandParser.ParseError(what + ": URL must have a host and a port (got \"" + text + "\")");
        }
        return uri;
    }
}
