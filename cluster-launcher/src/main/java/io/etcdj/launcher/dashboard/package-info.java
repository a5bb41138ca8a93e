/**
 * The dashboard ({@code cluster-launcher ui}, {@code up --ui}): a small HTTP server on 127.0.0.1
 * that serves one page (its HTML, CSS and JavaScript are resources of this jar) and a JSON API
 * behind it. It watches a cluster through the state file and the members' own APIs (Status,
 * /health, /metrics), acts on it only through the supervisor's control port, as every other
 * launcher command does, and reads and writes keys with the members' KV and Watch services.
 *
 * <p>Threads: the HTTP server's pool (one per request; a watch pane holds one for as long as it
 * is open), {@code dashboard-watch} (reads the state file and turns probe readings into a view,
 * history points and events, four times a second) and the {@code dashboard-probe} pool (each
 * member's Status every 250 ms and its /health and /metrics every 2 s, so a paused member only
 * ever stalls its own probes).
 */
package io.etcdj.launcher.dashboard;
