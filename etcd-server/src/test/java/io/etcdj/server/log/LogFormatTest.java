package io.etcdj.server.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
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
}
