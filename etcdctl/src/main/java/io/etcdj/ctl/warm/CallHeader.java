package io.etcdj.ctl.warm;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the client sends about one call: the tool (etcdctl or etcdutl), the caller's working
 * directory, the real path of the {@code java} its PATH finds, whether stdin, stdout and stderr are
 * terminals, the arguments and the whole environment.
 *
 * <p>Encoding: the string "EJW1", then strings tool, cwd, java, ttys ("tty"-style flags, e.g. "101"),
 * then a count and that many arguments, a count and that many NAME=VALUE entries. A string is a
 * big-endian 32-bit length and UTF-8 bytes (names and values are passed as bytes, as Unix has them).
 */
record CallHeader(String tool, String cwd, String java, boolean stdinTty, boolean stdoutTty,
        List<String> args, Map<String, String> env) {

    static final String VERSION = "EJW1";

    static CallHeader parse(byte[] payload) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload));
        if (!VERSION.equals(string(in))) {
            throw new IOException("unknown protocol version");
        }
        String tool = string(in);
        String cwd = string(in);
        String java = string(in);
        String ttys = string(in);
        int argc = count(in);
        List<String> args = new ArrayList<>(argc);
        for (int i = 0; i < argc; i++) {
            args.add(string(in));
        }
        int envc = count(in);
        Map<String, String> env = new LinkedHashMap<>();
        for (int i = 0; i < envc; i++) {
            String entry = string(in);
            int eq = entry.indexOf('=');
            if (eq > 0) {
                env.put(entry.substring(0, eq), entry.substring(eq + 1));
            }
        }
        return new CallHeader(tool, cwd, java, flag(ttys, 0), flag(ttys, 1), List.copyOf(args), Map.copyOf(env));
    }

    private static boolean flag(String ttys, int i) {
        return ttys.length() > i && ttys.charAt(i) == '1';
    }

    private static int count(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > 1 << 20) {
            throw new IOException("bad count " + n);
        }
        return n;
    }

    private static String string(DataInputStream in) throws IOException {
        byte[] b = new byte[count(in)];
        in.readFully(b);
        return new String(b, StandardCharsets.UTF_8);
    }
}
