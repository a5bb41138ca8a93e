package io.etcdj.ctl.warm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The call header as bin/warm-client.c writes it. */
class CallHeaderTest {

    @Test
    void readsEveryFieldAsTheClientSendsIt() throws IOException {
        byte[] payload = encode("EJW1", "etcdctl", "/home/u/dir", "/usr/lib/jvm/x/bin/java", "101",
                List.of("get", "k\u00e9y", ""), List.of("ETCDCTL_ENDPOINTS=127.0.0.1:1", "EMPTY=", "A=b=c"));
        CallHeader h = CallHeader.parse(payload);
        assertEquals("etcdctl", h.tool());
        assertEquals("/home/u/dir", h.cwd());
        assertEquals("/usr/lib/jvm/x/bin/java", h.java());
        assertTrue(h.stdinTty());
        assertFalse(h.stdoutTty());
        assertEquals(List.of("get", "k\u00e9y", ""), h.args());
        assertEquals(Map.of("ETCDCTL_ENDPOINTS", "127.0.0.1:1", "EMPTY", "", "A", "b=c"), h.env());
    }

    @Test
    void refusesAnotherProtocolVersion() throws IOException {
        byte[] payload = encode("EJW9", "etcdctl", "/", "", "000", List.of(), List.of());
        assertThrows(IOException.class, () -> CallHeader.parse(payload));
    }

    @Test
    void refusesATruncatedHeader() throws IOException {
        byte[] full = encode("EJW1", "etcdctl", "/", "", "000", List.of("get", "foo"), List.of());
        byte[] cut = Arrays.copyOf(full, full.length - 2);
        assertThrows(IOException.class, () -> CallHeader.parse(cut));
    }

    private static byte[] encode(String version, String tool, String cwd, String java, String ttys, List<String> args,
            List<String> env) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(b);
        for (String s : List.of(version, tool, cwd, java, ttys)) {
            string(out, s);
        }
        out.writeInt(args.size());
        for (String a : args) {
            string(out, a);
        }
        out.writeInt(env.size());
        for (String e : env) {
            string(out, e);
        }
        return b.toByteArray();
    }

    private static void string(DataOutputStream out, String s) throws IOException {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }
}
