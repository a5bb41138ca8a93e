package io.etcdj.launcher.dashboard;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import com.sun.net.httpserver.HttpExchange;
import io.etcdj.api.etcdserverpb.WatchCreateRequest;
import io.etcdj.api.etcdserverpb.WatchGrpc;
import io.etcdj.api.etcdserverpb.WatchRequest;
import io.etcdj.api.etcdserverpb.WatchResponse;
import io.etcdj.api.mvccpb.Event;
import io.grpc.Status;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The watch pane: one etcd watch per open pane, relayed to the browser as Server-Sent Events.
 * Each event's SSE id is its revision, so when the member goes away the browser reconnects
 * (EventSource does so by itself) with Last-Event-ID and the watch resumes on another member
 * from the next revision, so the pane neither misses nor repeats a revision (one cut in the middle
 * of a multi-key revision would lose that revision's remaining keys: rare enough for a pane).
 */
final class WatchRelay {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long KEEP_ALIVE_SECONDS = 15;
    private static final int RETRY_MILLIS = 1500;

    private final Endpoints endpoints;

    WatchRelay(Endpoints endpoints) {
        this.endpoints = endpoints;
    }

    /** Something for the relay loop: an etcd event, a problem that ends the stream, or the end. */
    private sealed interface Item permits KvEvent, Problem, Started {}

    private record KvEvent(Event event) implements Item {}

    /** {@code fatal}: reconnecting would fail the same way (compaction), so the page stops. */
    private record Problem(String message, boolean fatal) implements Item {}

    /** {@code revision}: where the watch began, as an SSE id when it began "now" (a resumed one keeps the browser's). */
    private record Started(String servedBy, long revision) implements Item {}

    /** Streams events under {@code prefix} from {@code startRevision} (0: from now) until the browser goes away. */
    void stream(HttpExchange exchange, String prefix, long startRevision) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
        exchange.getResponseHeaders().set("Cache-Control", "no-cache");
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream out = exchange.getResponseBody()) {
            write(out, "retry: " + RETRY_MILLIS + "\n\n");
            List<Endpoints.Endpoint> serving = endpoints.serving();
            if (serving.isEmpty()) {
                send(out, null, "problem", Map.of("message", "no member is running; retrying", "fatal", false));
                return;
            }
            Endpoints.Endpoint member = serving.get(0);
            BlockingQueue<Item> items = new LinkedBlockingQueue<>();
            ClientCallStreamObserver<WatchRequest>[] call = open(member, prefix, startRevision, items);
            try {
                relay(out, items, member.process());
            } finally {
                if (call[0] != null) {
                    call[0].cancel("the browser closed the watch pane", null);
                }
            }
        }
    }

    private void relay(OutputStream out, BlockingQueue<Item> items, String servedBy) throws IOException {
        while (true) {
            Item item;
            try {
                item = items.poll(KEEP_ALIVE_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (item == null) {
                write(out, ": keep-alive\n\n"); // fails once the browser has gone, which ends the relay
            } else if (item instanceof Started s) {
                send(out, s.revision() > 0 ? Long.toString(s.revision()) : null, "started",
                        Map.of("servedBy", s.servedBy()));
            } else if (item instanceof KvEvent k) {
                Event e = k.event();
                Map<String, Object> data = new LinkedHashMap<>();
                data.put("type", e.getType() == Event.EventType.DELETE ? "DELETE" : "PUT");
                data.put("key", KeyText.show(e.getKv().getKey()));
                data.put("value", KeyText.show(e.getKv().getValue()));
                data.put("modRevision", e.getKv().getModRevision());
                data.put("version", e.getKv().getVersion());
                data.put("prevValue", e.hasPrevKv() ? KeyText.show(e.getPrevKv().getValue()) : null);
                data.put("servedBy", servedBy);
                send(out, Long.toString(e.getKv().getModRevision()), "kv", data);
            } else if (item instanceof Problem p) {
                send(out, null, "problem", Map.of("message", p.message(), "fatal", p.fatal()));
                return;
            }
        }
    }

    @SuppressWarnings("unchecked")
    private ClientCallStreamObserver<WatchRequest>[] open(Endpoints.Endpoint member, String prefix, long start,
            BlockingQueue<Item> items) {
        ClientCallStreamObserver<WatchRequest>[] call = new ClientCallStreamObserver[1];
        ByteString p = ByteString.copyFromUtf8(prefix);
        WatchCreateRequest create = WatchCreateRequest.newBuilder()
                .setKey(p.isEmpty() ? ByteString.copyFrom(new byte[] {0}) : p)
                .setRangeEnd(KeyText.prefixEnd(p))
                .setStartRevision(Math.max(0, start))
                .setPrevKv(true)
                .build();
        WatchGrpc.newStub(endpoints.client(member.url(), Duration.ofSeconds(5)).channel())
                .watch(new ClientResponseObserver<WatchRequest, WatchResponse>() {
                    @Override
                    public void beforeStart(ClientCallStreamObserver<WatchRequest> requests) {
                        call[0] = requests;
                    }

                    @Override
                    public void onNext(WatchResponse r) {
                        if (r.getCompactRevision() > 0) {
                            items.add(new Problem("revision " + start + " has been compacted (compact revision "
                                    + r.getCompactRevision() + "); start the watch again", true));
                        } else if (r.getCanceled()) {
                            items.add(new Problem("watch canceled: " + r.getCancelReason(), false));
                        } else if (r.getCreated()) {
                            items.add(new Started(member.process(), start > 0 ? 0 : r.getHeader().getRevision()));
                        }
                        r.getEventsList().forEach(e -> items.add(new KvEvent(e)));
                    }

                    @Override
                    public void onError(Throwable t) {
                        items.add(new Problem(member.process() + " ended the watch: "
                                + Status.fromThrowable(t).getCode() + "; reconnecting", false));
                    }

                    @Override
                    public void onCompleted() {
                        items.add(new Problem(member.process() + " closed the watch; reconnecting", false));
                    }
                });
        call[0].onNext(WatchRequest.newBuilder().setCreateRequest(create).build());
        return call;
    }

    private static void send(OutputStream out, String id, String event, Object data) throws IOException {
        StringBuilder b = new StringBuilder();
        if (id != null) {
            b.append("id: ").append(id).append('\n');
        }
        b.append("event: ").append(event).append('\n');
        b.append("data: ").append(JSON.writeValueAsString(data)).append("\n\n");
        write(out, b.toString());
    }

    private static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
