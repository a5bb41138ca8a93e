package io.etcdj.server.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogFormatTest {
    @TempDir
    Path dir;

    private List<String> lines(boolean console, Runnable logging) throws Exception {
        Path file = dir.resolve(console ? "console.log" : "json.log");
        try {
            Log.setOutput(List.of(file.toString()));
            Log.setConsole(console);
            logging.run();
        } finally {
            Log.setConsole(false);
            Log.setOutput(List.of("default"));
        }
        return Files.readAllLines(file);
    }

    @Test
    void consoleIsZapsConsoleEncoding() throws Exception {
        List<String> out = lines(true, () -> {
            Log log = Log.get("embed/etcd");
            log.info("starting an etcd server", "name", "m1", "quota-backend-bytes", 2147483648L,
                    "listen-client-urls", List.of("http://127.0.0.1:2379", "unix://s:1"));
            log.warn("no fields");
        });
        String[] first = out.get(0).split("\t");
        assertEquals(5, first.length, out.get(0));
        assertTrue(first[0].matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}Z"), first[0]);
        assertEquals("info", first[1]);
        assertEquals("embed/etcd", first[2]);
        assertEquals("starting an etcd server", first[3]);
        assertEquals("{\"name\": \"m1\", \"quota-backend-bytes\": 2147483648, "
                + "\"listen-client-urls\": [\"http://127.0.0.1:2379\", \"unix://s:1\"]}", first[4]);
        assertEquals(List.of("warn", "embed/etcd", "no fields"), List.of(out.get(1).split("\t")).subList(1, 4));
        assertEquals(4, out.get(1).split("\t").length, "no field object without fields: " + out.get(1));
    }

    @Test
    void jsonStaysTheDefault() throws Exception {
        List<String> out = lines(false, () -> Log.get("embed/etcd").info("ready", "a", 1));
        assertTrue(out.get(0).matches("\\{\"level\":\"info\",\"ts\":\"[^\"]+\",\"caller\":\"embed/etcd\",\"msg\":\"ready\",\"a\":1}"),
                out.get(0));
    }

    /**
     * The shape of etcd's own fatal line for a failed backend commit (etcd 3.4, --logger=zap):
     * {"level":"fatal","ts":...,"caller":...,"msg":"failed to commit tx","error":"write ...: no space
     * left on device","stacktrace":"go.etcd.io/etcd/mvcc/backend.(*batchTx).commit\n\t..."}.
     */
    @Test
    void errorLinesCarryTheStackTraceLastAsZapDoes() throws Exception {
        IllegalStateException cause = new IllegalStateException("broken", new IOException("No space left on device"));
        List<String> out = lines(false, () -> {
            Log log = Log.get("etcdserver/apply");
            log.fatal("failed to apply", cause, "index", 7);
            log.error("with its own error field", cause, "error", "typed text");
        });
        var json = new ObjectMapper();
        var first = json.readTree(out.get(0));
        List<String> keys = new ArrayList<>();
        first.fieldNames().forEachRemaining(keys::add);
        assertEquals(List.of("level", "ts", "caller", "msg", "error", "index", "stacktrace"), keys);
        assertEquals("fatal", first.get("level").asText());
        assertEquals("java.lang.IllegalStateException: broken", first.get("error").asText());
        String trace = first.get("stacktrace").asText();
        assertTrue(trace.startsWith("java.lang.IllegalStateException: broken\n\tat io.etcdj.server.log.LogFormatTest"), trace);
        assertTrue(trace.contains("Caused by: java.io.IOException: No space left on device"), trace);
        var second = json.readTree(out.get(1));
        assertEquals("typed text", second.get("error").asText());
        assertTrue(second.has("stacktrace"));
        assertEquals(2, out.size(), "one line per entry: " + out);
    }

    @Test
    void consoleLinesPutTheStackTraceBelowTheEntry() throws Exception {
        List<String> out = lines(true, () -> Log.get("etcdmain").error("failed", new IllegalArgumentException("x")));
        assertEquals(List.of("error", "etcdmain", "failed", "{\"error\": \"java.lang.IllegalArgumentException: x\"}"),
                List.of(out.get(0).split("\t")).subList(1, 5));
        assertEquals("java.lang.IllegalArgumentException: x", out.get(1));
        assertTrue(out.get(2).startsWith("\tat io.etcdj.server.log.LogFormatTest"), out.get(2));
    }

    @Test
    void linesWithoutACauseHaveNoStackTrace() throws Exception {
        List<String> out = lines(false, () -> Log.get("x").error("plain", "error", "e"));
        assertTrue(!out.get(0).contains("stacktrace"), out.get(0));
    }
}
