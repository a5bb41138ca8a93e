package io.etcdj.benchmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.RequestOp;
import io.etcdj.api.etcdserverpb.TxnRequest;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Runs the commands as a user would, against a recording fake server. */
class WorkloadCommandsTest {
    private FakeKvServer server;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeEach
    void start() throws Exception {
        server = new FakeKvServer();
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
    }

    private int run(String... args) {
        return Main.commandLine(new PrintWriter(out), new PrintWriter(err)).execute(args);
    }

    @Test
    void putSendsTotalRequestsWithConfiguredSizes() {
        int code = run("--endpoints", server.endpoint(), "--clients", "5", "put", "--conns", "2",
                "--total", "300", "--key-size", "16", "--val-size", "100");
        assertEquals(0, code, err.toString());
        assertEquals(300, server.puts.size());
        for (PutRequest p : server.puts) {
            assertEquals(16, p.getKey().size());
            assertEquals(100, p.getValue().size());
        }
        // Default key space of 1: every put writes the same key.
        assertEquals(1, server.puts.stream().map(PutRequest::getKey).distinct().count());
        assertTrue(out.toString().contains("Summary:"), out.toString());
        assertTrue(out.toString().contains("RESULT name=put clients=5 conns=2 total=300 ok=300 errors=0 "),
                out.toString());
    }

    @Test
    void sequentialKeysCoverTheKeySpace() {
        assertEquals(0, run("put", "--endpoints", server.endpoint(), "--total", "50",
                "--key-space-size", "10", "--sequential-keys"), err.toString());
        Set<ByteString> keys = server.puts.stream().map(PutRequest::getKey).collect(Collectors.toSet());
        assertEquals(10, keys.size());
    }

    @Test
    void rangeHonoursConsistencyAndRangeEnd() {
        assertEquals(0, run("range", "foo", "fop", "--consistency", "s", "--total", "20",
                "--endpoints", "http://" + server.endpoint()), err.toString());
        assertEquals(20, server.ranges.size());
        assertTrue(server.ranges.stream().allMatch(r -> r.getSerializable()
                && r.getKey().toStringUtf8().equals("foo") && r.getRangeEnd().toStringUtf8().equals("fop")));
        assertTrue(out.toString().contains("RESULT name=range-s "), out.toString());

        server.ranges.clear();
        assertEquals(0, run("range", "foo", "--total", "5", "--endpoints", server.endpoint()));
        assertTrue(server.ranges.stream().noneMatch(r -> r.getSerializable() || !r.getRangeEnd().isEmpty()));
    }

    @Test
    void badConsistencyIsAClearError() {
        assertEquals(1, run("range", "foo", "--consistency", "x", "--endpoints", server.endpoint()));
        assertEquals("benchmark: consistency must be l or s, got \"x\"", err.toString().strip());
        assertTrue(server.ranges.isEmpty());
    }

    @Test
    void runWhereEveryRequestFailsExitsNonZeroAndShowsTheErrors() {
        server.failRanges = true;
        assertEquals(1, run("range", "foo", "--total", "7", "--endpoints", server.endpoint()));
        assertTrue(out.toString().contains("[7]\trpc error: code = Unavailable desc = no leader"), out.toString());
        assertTrue(out.toString().contains("ok=0 errors=7"), out.toString());
        assertFalse(out.toString().contains("Latency distribution"));
    }

    @Test
    void txnPutPutsDistinctKeysPerTransaction() {
        assertEquals(0, run("txn-put", "--endpoints", server.endpoint(), "--total", "40", "--txn-ops", "4",
                "--key-space-size", "5", "--clients", "4"), err.toString());
        assertEquals(40, server.txns.size());
        for (TxnRequest t : server.txns) {
            assertEquals(0, t.getCompareCount());
            assertEquals(4, t.getSuccessCount());
            assertEquals(4, t.getSuccessList().stream().map(RequestOp::getRequestPut).map(PutRequest::getKey)
                    .distinct().count());
            assertEquals(8, t.getSuccess(0).getRequestPut().getValue().size());
        }
    }

    @Test
    void txnPutNeedsAKeySpaceAsLargeAsItsOps() {
        assertEquals(1, run("txn-put", "--endpoints", server.endpoint(), "--txn-ops", "3"));
        assertTrue(err.toString().contains("--key-space-size (1) must be at least --txn-ops (3)"), err.toString());
    }

    @Test
    void badEndpointAndMissingSubcommandAreReportedWithoutStackTraces() {
        assertEquals(1, run("put", "--endpoints", "https://127.0.0.1:1"));
        assertTrue(err.toString().startsWith("benchmark: TLS endpoints are not supported"), err.toString());
        assertTrue(run() != 0);
        assertFalse(err.toString().contains("Exception"), err.toString());
    }

    @Test
    void watchLatencyTimesEveryEventOfEveryWatcher() {
        assertEquals(0, run("watch-latency", "--endpoints", server.endpoint(), "--put-total", "20",
                "--put-rate", "1000", "--streams", "3", "--watchers-per-stream", "2", "--val-size", "16"),
                err.toString());
        assertEquals(20, server.puts.size());
        assertTrue(server.puts.stream().allMatch(p -> p.getValue().size() == 16 && p.getKey().size() == 32));
        assertTrue(out.toString().contains("RESULT name=watch-latency clients=1 conns=1 total=120 ok=120 errors=0 "),
                out.toString());
    }

    @Test
    void watchLatencyGivesUpClearlyWhenWatchersAreNeverCreated() {
        server.dropWatchers = true;
        assertEquals(1, run("watch-latency", "--endpoints", server.endpoint(), "--put-total", "1",
                "--streams", "1", "--watchers-per-stream", "1", "--wait-timeout", "1"));
        assertTrue(err.toString().contains("benchmark: watchers were not created within 1s (0 of 1)"), err.toString());
    }

    @Test
    void watchLatencyNeedsRoomForThePutNumberInTheValue() {
        assertEquals(1, run("watch-latency", "--endpoints", server.endpoint(), "--val-size", "4"));
        assertTrue(err.toString().contains("--val-size must be at least 8"), err.toString());
    }
}
