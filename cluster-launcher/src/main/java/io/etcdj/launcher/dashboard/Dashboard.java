package io.etcdj.launcher.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.etcdj.cli.ExitCodes;
import io.etcdj.launcher.LauncherException;
import io.etcdj.launcher.client.MemberCallException;
import io.etcdj.launcher.supervisor.StateFile;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * The dashboard's web server on 127.0.0.1: the page's files and its JSON API.
 *
 * <ul>
 *   <li>{@code GET /api/cluster?since=H&events=E}: the current {@link ClusterView}, chart points
 *   after H and events after E;</li>
 *   <li>{@code POST /api/action} {@code {"verb","member","value"}}: one launcher action;</li>
 *   <li>{@code GET /api/kv/list?prefix=}, {@code /api/kv/get?key=&rev=}, {@code /api/kv/versions?key=},
 *   {@code POST /api/kv/put} {@code {"key","value"}}, {@code POST /api/kv/delete} {@code {"key","prefix"}};</li>
 *   <li>{@code GET /api/watch?prefix=}: the watch pane's event stream.</li>
 * </ul>
 *
 * <p>It can kill processes, so other web pages must not be able to drive it: requests must name
 * this server as their Host (no DNS rebinding), and changes are POSTs with a JSON body and a
 * custom header, which a page of another origin cannot send without a CORS preflight that this
 * server never approves.
 */
public final class Dashboard implements AutoCloseable {
    /** The header the page sends with every change. */
    static final String ACTION_HEADER = "X-Cluster-Launcher";

    private final HttpServer server;
    private final ExecutorService pool;
    private final ClusterWatcher watcher;
    private final Endpoints endpoints;
    private final ControlActions actions;
    private final KeyBrowser keys;
    private final WatchRelay watches;
    private final History history;
    private final EventLog log;

    private Dashboard(HttpServer server, StateFile stateFile, LongSupplier clock) {
        this.server = server;
        this.history = new History();
        this.log = new EventLog(clock);
        EventDetector detector = new EventDetector();
        this.watcher = new ClusterWatcher(stateFile, history, detector, log, clock);
        this.endpoints = new Endpoints(watcher);
        this.actions = new ControlActions(stateFile, detector, log, clock);
        this.keys = new KeyBrowser(endpoints, log);
        this.watches = new WatchRelay(endpoints);
        AtomicInteger n = new AtomicInteger();
        this.pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "dashboard-http-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts watching the cluster whose state file is {@code stateFile} and serves the page on
     * 127.0.0.1:{@code port} (0: a free port).
     */
    public static Dashboard start(Path stateFile, int port) {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 32);
        } catch (BindException e) {
            throw new LauncherException("the dashboard cannot listen on 127.0.0.1:" + port + ": the port is already in use");
        } catch (IOException e) {
            throw new LauncherException("the dashboard cannot listen on 127.0.0.1:" + port + ": " + e.getMessage());
        }
        Dashboard d = new Dashboard(server, new StateFile(stateFile), System::currentTimeMillis);
        server.setExecutor(d.pool);
        server.createContext("/", d::handle);
        d.log.add("action", "dashboard started");
        d.watcher.start();
        server.start();
        return d;
    }

    /** The address to open, e.g. http://127.0.0.1:41234/ */
    public URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            answer(exchange);
        }
    }

    /** Answers one request; errors become JSON answers (before the exchange is closed). */
    private void answer(HttpExchange exchange) throws IOException {
        try {
            if (!hostAllowed(exchange)) {
                HttpCalls.error(exchange, 403, "the dashboard answers only to 127.0.0.1 and localhost");
                return;
            }
            String method = exchange.getRequestMethod();
            String path = exchange.getRequestURI().getPath();
            if ("POST".equals(method)) {
                // read before answering, also when refusing: an unread body makes the client see a reset
                byte[] raw = HttpCalls.readBody(exchange);
                if (!exchange.getRequestHeaders().containsKey(ACTION_HEADER)
                        || !String.valueOf(exchange.getRequestHeaders().getFirst("Content-Type")).startsWith("application/json")) {
                    HttpCalls.error(exchange, 403, "changes need a JSON body and the " + ACTION_HEADER + " header");
                    return;
                }
                post(exchange, path, HttpCalls.json(raw));
            } else if ("GET".equals(method)) {
                get(exchange, path);
            } else {
                HttpCalls.error(exchange, 405, "method " + method + " not allowed");
            }
        } catch (HttpCalls.BadRequest e) {
            HttpCalls.error(exchange, 400, e.getMessage());
        } catch (MemberCallException e) {
            HttpCalls.error(exchange, 502, e.getMessage());
        } catch (LauncherException e) {
            HttpCalls.error(exchange, e.exitCode() == ExitCodes.USAGE ? 400 : 409, e.getMessage());
        } catch (IOException e) {
            throw e; // the browser went away
        } catch (RuntimeException e) {
            HttpCalls.error(exchange, 500, "dashboard error: " + e);
        }
    }

    private boolean hostAllowed(HttpExchange exchange) {
        String host = exchange.getRequestHeaders().getFirst("Host");
        int port = server.getAddress().getPort();
        return host != null && Set.of("127.0.0.1:" + port, "localhost:" + port).contains(host.toLowerCase(Locale.ROOT));
    }

    private void get(HttpExchange exchange, String path) throws IOException {
        Map<String, String> q = HttpCalls.query(exchange);
        switch (path) {
            case "/api/cluster" -> HttpCalls.json(exchange, 200, clusterJson(HttpCalls.longParam(q, "since"),
                    HttpCalls.longParam(q, "events")));
            case "/api/kv/list" -> HttpCalls.json(exchange, 200, keys.list(q.getOrDefault("prefix", "")));
            case "/api/kv/get" -> HttpCalls.json(exchange, 200, keys.get(q.getOrDefault("key", ""), HttpCalls.longParam(q, "rev")));
            case "/api/kv/versions" -> HttpCalls.json(exchange, 200, keys.versions(q.getOrDefault("key", "")));
            case "/api/watch" -> {
                String lastId = exchange.getRequestHeaders().getFirst("Last-Event-ID");
                long from = lastId != null && lastId.matches("\\d+") ? Long.parseLong(lastId) + 1 : HttpCalls.longParam(q, "rev");
                watches.stream(exchange, q.getOrDefault("prefix", ""), from);
            }
            default -> {
                String name = path.equals("/") ? "index.html" : path.substring(1);
                var asset = StaticAssets.find(name);
                if (asset.isEmpty()) {
                    HttpCalls.error(exchange, 404, "no such page: " + path);
                } else {
                    HttpCalls.send(exchange, 200, asset.get().contentType(), asset.get().bytes());
                }
            }
        }
    }

    private void post(HttpExchange exchange, String path, JsonNode body) throws IOException {
        switch (path) {
            case "/api/action" -> {
                ControlActions.Result r = actions.run(text(body, "verb"), text(body, "member"), text(body, "value"));
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("ok", r.ok());
                out.put("exitCode", r.exitCode());
                out.put("output", r.output());
                out.put("error", r.error().replaceFirst("^Error: ", ""));
                HttpCalls.json(exchange, 200, out);
            }
            case "/api/kv/put" -> HttpCalls.json(exchange, 200, keys.put(text(body, "key"), text(body, "value")));
            case "/api/kv/delete" -> HttpCalls.json(exchange, 200, keys.delete(text(body, "key"),
                    body.path("prefix").asBoolean(false)));
            default -> HttpCalls.error(exchange, 404, "no such action: " + path);
        }
    }

    private static String text(JsonNode body, String field) {
        JsonNode n = body.get(field);
        return n == null || n.isNull() ? "" : n.asText();
    }

    private Map<String, Object> clusterJson(long since, long eventsSince) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("view", watcher.view());
        History.Slice slice = history.since(since);
        out.put("historySeq", slice.seq());
        out.put("rates", slice.rates());
        out.put("terms", slice.terms());
        List<ClusterEvent> events = log.since(eventsSince);
        out.put("events", events);
        return out;
    }

    @Override
    public void close() {
        server.stop(0);
        watcher.close();
        endpoints.close();
        pool.shutdownNow();
    }
}
