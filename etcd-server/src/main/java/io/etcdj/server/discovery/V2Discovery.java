package io.etcdj.server.discovery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdj.server.log.Log;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * etcd's v2 discovery protocol against a discovery service (an etcd v2 keys directory such as
 * {@code http://host:2379/v2/keys/discovery/<token>}): register this member under its ID, read
 * the expected size from {@code _config/size}, wait until that many members registered, and
 * build the initial cluster from the first {@code size} registrations (by creation order).
 * A member registered after the cluster is complete gets "discovery: cluster is full".
 */
public final class V2Discovery {
    private static final Log LOG = Log.get("v2discovery/discovery.go");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int RETRIES = 5;

    private final HttpClient http;
    private final String url;
    private final String id;

    private V2Discovery(String url, HttpClient http, long memberId) {
        this.url = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        this.http = http;
        this.id = Long.toHexString(memberId);
    }

    /**
     * Joins the cluster of discovery URL {@code url} as member {@code memberId} with
     * {@code selfConfig} ("name=peerURL,..."); returns the initial cluster. A non-empty
     * {@code proxy} (--discovery-proxy, "host:port" or "http://host:port") is the HTTP proxy
     * every request to the discovery service goes through.
     */
    public static String join(String url, String proxy, long memberId, String selfConfig) throws DiscoveryException {
        HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5));
        if (proxy != null && !proxy.isEmpty()) {
            URI p = proxyUri(proxy);
            LOG.info("running proxy with discovery", "proxy-url", p.toString());
            b.proxy(ProxySelector.of(new InetSocketAddress(p.getHost(),
                    p.getPort() < 0 ? ("https".equals(p.getScheme()) ? 443 : 80) : p.getPort())));
        }
        return new V2Discovery(url, b.build(), memberId).join(selfConfig);
    }

    /** The proxy as Go's discovery client reads it: "http://" is assumed when no http(s) scheme is given. */
    private static URI proxyUri(String proxy) throws DiscoveryException {
        String s = proxy.startsWith("http://") || proxy.startsWith("https://") ? proxy : "http://" + proxy;
        try {
            URI u = new URI(s);
            if (u.getHost() == null) {
                throw new URISyntaxException(proxy, "missing host");
            }
            return u;
        } catch (URISyntaxException e) {
            throw new DiscoveryException("invalid proxy address \"" + proxy + "\": " + e.getMessage());
        }
    }

    private String join(String selfConfig) throws DiscoveryException {
        createSelf(selfConfig);
        int size = size();
        List<JsonNode> nodes = members();
        long index = 0;
        while (true) {
            checkFull(nodes, size);
            if (nodes.size() >= size) {
                break;
            }
            LOG.info("found peers from discovery server; waiting for more", "discovery-url", url,
                    "found-peers", nodes.size(), "needed-peers", size - nodes.size());
            for (JsonNode n : nodes) {
                index = Math.max(index, n.path("modifiedIndex").asLong());
            }
            JsonNode change = get(url + "?wait=true&recursive=true&waitIndex=" + (index + 1));
            index = Math.max(index, change.path("node").path("modifiedIndex").asLong());
            nodes = members();
        }
        List<String> parts = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (JsonNode n : nodes.subList(0, size)) {
            String value = n.path("value").asText();
            for (String p : value.split(",")) {
                String name = p.substring(0, Math.max(0, p.indexOf('=')));
                if (!names.add(name) && !value.startsWith(name + "=")) {
                    throw new DiscoveryException("discovery: found duplicate name");
                }
            }
            parts.add(value);
        }
        return String.join(",", parts);
    }

    private void createSelf(String selfConfig) throws DiscoveryException {
        String body = "value=" + URLEncoder.encode(selfConfig, StandardCharsets.UTF_8);
        HttpRequest put = HttpRequest.newBuilder(URI.create(url + "/" + id + "?prevExist=false"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .PUT(HttpRequest.BodyPublishers.ofString(body)).build();
        HttpResponse<String> r = send(put);
        if (r.statusCode() == 412) {
            throw new DiscoveryException("discovery: found duplicate id");
        }
        if (r.statusCode() / 100 != 2) {
            throw new DiscoveryException(v2Error(r));
        }
    }

    private int size() throws DiscoveryException {
        HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(url + "/_config/size")).GET().build());
        if (r.statusCode() == 404) {
            throw new DiscoveryException("discovery: size key not found");
        }
        if (r.statusCode() / 100 != 2) {
            throw new DiscoveryException(v2Error(r));
        }
        try {
            return Integer.parseInt(parse(r).path("node").path("value").asText());
        } catch (NumberFormatException e) {
            throw new DiscoveryException("discovery: size key is bad");
        }
    }

    /** The registrations, oldest first, without the _config directory. */
    private List<JsonNode> members() throws DiscoveryException {
        JsonNode dir = get(url);
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode n : dir.path("node").path("nodes")) {
            if (!n.path("key").asText().endsWith("/_config")) {
                out.add(n);
            }
        }
        out.sort(Comparator.comparingLong(n -> n.path("createdIndex").asLong()));
        return out;
    }

    /** Full when the first {@code size} registrations are complete and this member is not among them. */
    private void checkFull(List<JsonNode> nodes, int size) throws DiscoveryException {
        for (int i = 0; i < nodes.size() && i < size; i++) {
            if (nodes.get(i).path("key").asText().endsWith("/" + id)) {
                return;
            }
        }
        if (nodes.size() >= size) {
            throw new DiscoveryException("discovery: cluster is full");
        }
    }

    private JsonNode get(String target) throws DiscoveryException {
        HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(target)).GET().build());
        if (r.statusCode() / 100 != 2) {
            throw new DiscoveryException(v2Error(r));
        }
        return parse(r);
    }

    /** Sends, retrying a connection failure a few times (the service may be starting). */
    private HttpResponse<String> send(HttpRequest req) throws DiscoveryException {
        IOException last = null;
        for (int attempt = 0; attempt < RETRIES; attempt++) {
            try {
                return http.send(req, HttpResponse.BodyHandlers.ofString());
            } catch (IOException e) {
                last = e;
                LOG.info("discovery service is not reachable; retrying", "discovery-url", url,
                        "error", String.valueOf(e.getMessage()));
                sleep();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new DiscoveryException("discovery: interrupted");
            }
        }
        throw new DiscoveryException("discovery: too many retries (" + last + ")");
    }

    private static void sleep() throws DiscoveryException {
        try {
            Thread.sleep(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DiscoveryException("discovery: interrupted");
        }
    }

    private static JsonNode parse(HttpResponse<String> r) throws DiscoveryException {
        try {
            return JSON.readTree(r.body());
        } catch (IOException e) {
            throw new DiscoveryException("discovery: bad answer from the discovery service: " + e.getMessage());
        }
    }

    /** The v2 API's error as Go's client prints it: "100: Key not found (/discovery/x) [6]". */
    private static String v2Error(HttpResponse<String> r) {
        try {
            JsonNode e = JSON.readTree(r.body());
            if (e.has("errorCode")) {
                return e.path("errorCode").asInt() + ": " + e.path("message").asText() + " (" + e.path("cause").asText()
                        + ") [" + e.path("index").asLong() + "]";
            }
        } catch (IOException ignored) {
            // not the v2 error shape: the status below
        }
        return "discovery: unexpected response " + r.statusCode() + " from the discovery service";
    }
}
