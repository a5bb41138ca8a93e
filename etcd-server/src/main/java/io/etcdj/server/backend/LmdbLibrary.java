package io.etcdj.server.backend;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.lmdbjava.Meta;

/**
 * Loads LMDB's native library without leaving a copy of it behind. lmdbjava extracts the library
 * it bundles into a new file in the temp directory at every start and removes it only when the
 * JVM exits normally, which a member stopped by a signal (it halts), killed or cut off by a power
 * loss never does: each start left a 320 KB file behind, thousands of them on a machine that runs
 * tests. Here lmdbjava extracts into a private directory of this JVM's (owner-only), removed as
 * soon as the library is loaded: the loaded library outlives its file. A user who names the
 * library ({@code lmdbjava.native.lib}) or the extraction directory ({@code lmdbjava.extract.dir})
 * keeps lmdbjava's own behaviour.
 *
 * <p>lmdbjava binds LMDB through jnr-ffi, which by default generates the binding's class with ASM
 * at every start: about 90 ms of a member's start-up CPU and the ASM classes it loads. Its
 * reflective binding (a proxy whose methods call jffi's invokers) is used instead unless the user
 * chose ({@code jnr.ffi.asm.enabled}); it costs nothing measurable per request, an LMDB call being
 * a small part of one (docs/benchmarks.md, the tenth round). That binding opens the native library
 * on its first call, so one call is made here, before the extracted file is removed.
 */
final class LmdbLibrary {
    private static final String EXTRACT_DIR = "lmdbjava.extract.dir";
    private static final String NATIVE_LIB = "lmdbjava.native.lib";
    private static final String LIBRARY_CLASS = "org.lmdbjava.Library";
    private static final String JNR_ASM = "jnr.ffi.asm.enabled";

    private LmdbLibrary() {
    }

    /** Loads the library, once per JVM (later calls return at once). Call before the first use of lmdbjava. */
    static void load() {
        Once.done();
    }

    /** Its class initialisation is the one load: the JVM runs it once, and other threads wait for it. */
    private static final class Once {
        static {
            if (System.getProperty(NATIVE_LIB) != null || System.getProperty(EXTRACT_DIR) != null) {
                initialise();
            } else {
                extractIntoPrivateDirectory();
            }
        }

        static void done() {
        }

        private static void extractIntoPrivateDirectory() {
            Path dir;
            try {
                dir = Files.createTempDirectory("etcdj-lmdb-");
            } catch (IOException e) {
                initialise(); // lmdbjava's own extraction reports what is wrong with the temp directory
                return;
            }
            System.setProperty(EXTRACT_DIR, dir.toString());
            try {
                initialise();
            } finally {
                System.clearProperty(EXTRACT_DIR);
                deleteQuietly(dir);
            }
        }

        private static void initialise() {
            // jnr-ffi reads the property once, when its loader is first used (here, unless the
            // embedding application used jnr-ffi before); it is not left set for anyone else
            boolean chosen = System.getProperty(JNR_ASM) != null;
            if (!chosen) {
                System.setProperty(JNR_ASM, "false");
            }
            try {
                Class.forName(LIBRARY_CLASS, true, LmdbLibrary.class.getClassLoader());
                Meta.version(); // the reflective binding opens the library here, while its file exists
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("lmdbjava is not on the class path", e);
            } finally {
                if (!chosen) {
                    System.clearProperty(JNR_ASM);
                }
            }
        }

        private static void deleteQuietly(Path dir) {
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : (Iterable<Path>) files::iterator) {
                    Files.deleteIfExists(f);
                }
                Files.deleteIfExists(dir);
            } catch (IOException | UncheckedIOException e) {
                // a directory we could not remove is one empty directory or one file: not worth failing a start for
            }
        }
    }
}
