package io.etcdj.server.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.Command;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * LMDB's library is loaded from lmdbjava's jar, or from a file the user names. A member that never
 * exits normally (halted on a signal, killed, powered off) leaves nothing of LMDB's native library
 * in the temp directory. Each case runs a fresh JVM whose temp directory is
 * the test's, opens a backend there and halts, as a killed member ends.
 */
class LmdbLibraryTest {
    @TempDir
    Path tmp;

    @Test
    void aHaltedMemberLeavesNoCopyOfTheLibraryBehind() throws Exception {
        Path temp = Files.createDirectory(tmp.resolve("temp"));
        Command.Result r = openAndHalt(temp, List.of());
        assertEquals(0, r.exitCode(), r.output());
        assertTrue(r.output().contains("read back: value"), r.output());
        assertEquals(List.of(), leftIn(temp), "the temp directory holds only what the backend made");
    }

    /** The test can see a leak: with the extraction directory named, lmdbjava's own extraction stays, as before. */
    @Test
    void lmdbjavasOwnExtractionLeavesItsFileWhereTheUserAskedForIt() throws Exception {
        Path temp = Files.createDirectory(tmp.resolve("temp"));
        Path extract = Files.createDirectory(tmp.resolve("extract"));
        Command.Result r = openAndHalt(temp, List.of("-Dlmdbjava.extract.dir=" + extract));
        assertEquals(0, r.exitCode(), r.output());
        List<String> left = leftIn(extract);
        assertEquals(1, left.size(), left.toString());
        assertTrue(left.get(0).startsWith("lmdbjava-native-library-"), left.toString());
    }

    /** A library the user names is the one loaded: the backend works on it, and nothing is extracted. */
    @Test
    void aLibraryNamedByTheUserIsLoadedInsteadOfTheBundledOne() throws Exception {
        Path named = tmp.resolve("my-liblmdb.so");
        try (InputStream in = LmdbLibraryTest.class.getClassLoader().getResourceAsStream("org/lmdbjava/x86_64-linux-gnu.so")) {
            Files.copy(in, named);
        }
        Path temp = Files.createDirectory(tmp.resolve("temp"));
        Command.Result r = openAndHalt(temp, List.of("-Dlmdbjava.native.lib=" + named));
        assertEquals(0, r.exitCode(), r.output());
        assertTrue(r.output().contains("read back: value"), r.output());
        assertEquals(List.of(), leftIn(temp));

        Command.Result missing = openAndHalt(temp, List.of("-Dlmdbjava.native.lib=" + tmp.resolve("no-such.so")));
        assertTrue(missing.exitCode() != 0, missing.output());
        assertTrue(missing.output().contains("UnsatisfiedLinkError") && missing.output().contains("no-such.so"), missing.output());
    }

    private static Command.Result openAndHalt(Path temp, List<String> jvmOptions) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> argv = new ArrayList<>(List.of(java.toString(), "-Djava.io.tmpdir=" + temp));
        argv.addAll(jvmOptions);
        argv.addAll(List.of("-cp", System.getProperty("java.class.path"), OpenAndHalt.class.getName(), temp.resolve("db").toString()));
        return Command.of(argv).mergeStderr().run();
    }

    /** The names in {@code dir} other than the backend's own files. */
    private static List<String> leftIn(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith("db")).sorted().toList();
        }
    }

    /** Opens a backend at args[0] and halts the JVM: no shutdown hooks, no delete-on-exit. */
    public static final class OpenAndHalt {
        private OpenAndHalt() {
        }

        public static void main(String[] args) {
            Backend b = Backend.open(Path.of(args[0]), 1 << 20);
            byte[] key = "key".getBytes(StandardCharsets.UTF_8);
            try (WriteTx w = b.beginWrite()) {
                w.put(Bucket.META, key, "value".getBytes(StandardCharsets.UTF_8));
                w.commit();
            }
            try (ReadTx r = b.beginRead()) {
                System.out.println("read back: " + new String(r.get(Bucket.META, key), StandardCharsets.UTF_8));
            }
            Runtime.getRuntime().halt(0);
        }
    }
}
