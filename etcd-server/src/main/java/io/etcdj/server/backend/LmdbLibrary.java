package io.etcdj.server.backend;

import com.kenai.jffi.Library;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Loads LMDB's native library, the one lmdbjava's jar carries for each platform, without leaving a
 * copy of it behind. A member halted by a signal, killed or cut off by a power loss never reaches a
 * normal JVM exit, so a copy deleted "on exit" (lmdbjava's way) stayed behind at every start: here
 * the library is extracted into a private directory of this JVM's (owner-only), loaded, and the
 * directory removed at once (the loaded library outlives its file).
 *
 * <p>lmdbjava's two properties keep their meaning: {@code lmdbjava.native.lib} names a library file
 * to load instead, and with {@code lmdbjava.extract.dir} the copy is made there and left for the
 * user, under lmdbjava's name for it.
 */
final class LmdbLibrary {
    static final String NATIVE_LIB = "lmdbjava.native.lib";
    static final String EXTRACT_DIR = "lmdbjava.extract.dir";

    private LmdbLibrary() {
    }

    /** Opens the library; called once, by {@link Lmdb}'s initialisation. */
    static Library load() {
        String named = System.getProperty(NATIVE_LIB);
        if (named != null) {
            return open(Path.of(named));
        }
        String resource = "org/lmdbjava/" + platform() + ".so";
        String extractDir = System.getProperty(EXTRACT_DIR);
        try {
            if (extractDir != null) {
                Path dir = Files.createDirectories(Path.of(extractDir));
                return open(extract(resource, Files.createTempFile(dir, "lmdbjava-native-library-", ".so")));
            }
            Path dir = Files.createTempDirectory("etcdj-lmdb-");
            try {
                return open(extract(resource, dir.resolve("liblmdb.so")));
            } finally {
                deleteQuietly(dir);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot extract LMDB's library (" + resource + "): " + e.getMessage(), e);
        }
    }

    /** lmdbjava's name for this platform's library: {@code x86_64-linux-gnu}, {@code aarch64-macos-none}, ... */
    private static String platform() {
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String cpu = switch (arch) {
            case "amd64", "x86_64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch64";
            default -> null;
        };
        String system = os.startsWith("linux") ? "linux-gnu" : os.startsWith("mac") ? "macos-none" : null;
        if (cpu == null || system == null) {
            throw new UnsatisfiedLinkError("no LMDB library is bundled for " + os + " on " + arch
                    + "; name one with -D" + NATIVE_LIB + "=PATH");
        }
        return cpu + "-" + system;
    }

    private static Path extract(String resource, Path target) throws IOException {
        try (InputStream in = LmdbLibrary.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new UnsatisfiedLinkError("LMDB's library " + resource + " is not on the class path (lmdbjava's jar)");
            }
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        }
        return target;
    }

    private static Library open(Path file) {
        Library library = Library.openLibrary(file.toAbsolutePath().toString(), Library.LAZY | Library.LOCAL);
        if (library == null) {
            throw new UnsatisfiedLinkError("cannot load LMDB's library " + file + ": " + Library.getLastError());
        }
        return library;
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
