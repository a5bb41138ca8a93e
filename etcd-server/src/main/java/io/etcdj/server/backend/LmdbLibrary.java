package io.etcdj.server.backend;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Loads LMDB's native library without leaving a copy of it behind. lmdbjava extracts the library
 * it bundles into a new file in the temp directory at every start and removes it only when the
 * JVM exits normally, which a member stopped by a signal (it halts), killed or cut off by a power
 * loss never does: each start left a 320 KB file behind, thousands of them on a machine that runs
 * tests. Here lmdbjava extracts into a private directory of this JVM's (owner-only), removed as
 * soon as the library is loaded: the loaded library outlives its file. A user who names the
 * library ({@code lmdbjava.native.lib}) or the extraction directory ({@code lmdbjava.extract.dir})
 * keeps lmdbjava's own behaviour.
 */
final class LmdbLibrary {
    private static final String EXTRACT_DIR = "lmdbjava.extract.dir";
    private static final String NATIVE_LIB = "lmdbjava.native.lib";
    private static final String LIBRARY_CLASS = "org.lmdbjava.Library";

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
            try {
                Class.forName(LIBRARY_CLASS, true, LmdbLibrary.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("lmdbjava is not on the class path", e);
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
