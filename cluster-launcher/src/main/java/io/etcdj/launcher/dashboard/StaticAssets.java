package io.etcdj.launcher.dashboard;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Optional;

/**
 * The page's files, read from this jar: nothing is fetched from anywhere else. Only the names
 * listed here are served, so a request can never reach other resources of the class path.
 */
final class StaticAssets {
    private static final String ROOT = "/io/etcdj/launcher/dashboard/web/";
    private static final Map<String, String> FILES = Map.of(
            "index.html", "text/html; charset=utf-8",
            "dashboard.css", "text/css; charset=utf-8",
            "dashboard.js", "text/javascript; charset=utf-8",
            "cluster-drawing.js", "text/javascript; charset=utf-8",
            "charts.js", "text/javascript; charset=utf-8",
            "keys.js", "text/javascript; charset=utf-8",
            "api.js", "text/javascript; charset=utf-8",
            "favicon.svg", "image/svg+xml");

    /** A file's bytes and content type. */
    record Asset(byte[] bytes, String contentType) {}

    private StaticAssets() {}

    static Optional<Asset> find(String name) throws IOException {
        String type = FILES.get(name);
        if (type == null) {
            return Optional.empty();
        }
        try (InputStream in = StaticAssets.class.getResourceAsStream(ROOT + name)) {
            if (in == null) {
                throw new IOException("the dashboard's " + name + " is missing from the jar");
            }
            return Optional.of(new Asset(in.readAllBytes(), type));
        }
    }
}
