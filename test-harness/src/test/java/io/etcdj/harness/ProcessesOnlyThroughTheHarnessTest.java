package io.etcdj.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Tests start processes through the harness ({@link Command}, {@link RunningCommand},
 * {@link LoggedProcess}), which kills what they leave and shows their output on failure: a test
 * source of any module that builds a ProcessBuilder or calls Runtime.exec fails this test, unless
 * it is listed below with the reason it must control the process itself.
 */
class ProcessesOnlyThroughTheHarnessTest {
    private static final Pattern RAW_PROCESS = Pattern.compile("new ProcessBuilder\\b|\\bRuntime\\.getRuntime\\(\\)\\.exec\\b");

    /** Test sources (relative to the checkout) that may start processes themselves, and why. */
    private static final Map<String, String> ALLOWED = Map.of();

    @Test
    void noTestSourceStartsAProcessItself() throws IOException {
        Path root = ServerCommand.projectRoot();
        List<String> offenders;
        try (Stream<Path> modules = Files.list(root)) {
            offenders = modules.filter(m -> !m.getFileName().toString().equals("test-harness"))
                    .map(m -> m.resolve("src").resolve("test"))
                    .filter(Files::isDirectory)
                    .flatMap(ProcessesOnlyThroughTheHarnessTest::javaFiles)
                    .filter(f -> RAW_PROCESS.matcher(read(f)).find())
                    .map(f -> root.relativize(f).toString())
                    .filter(f -> !ALLOWED.containsKey(f))
                    .sorted()
                    .toList();
        }
        assertEquals(List.of(), offenders, "test sources that start processes without the harness's Command "
                + "(use Command.run/start, atTerminal, signal; or list the file in ALLOWED with the reason)");
    }

    /** A listed file that no longer starts processes itself comes off the list. */
    @Test
    void everyListedFileStillNeedsItsPlace() {
        Path root = ServerCommand.projectRoot();
        List<String> stale = ALLOWED.keySet().stream()
                .filter(f -> !Files.exists(root.resolve(f)) || !RAW_PROCESS.matcher(read(root.resolve(f))).find())
                .sorted()
                .toList();
        assertEquals(List.of(), stale, "listed but starting no process itself: take them off the list");
    }

    private static Stream<Path> javaFiles(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(f -> f.toString().endsWith(".java")).toList().stream();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
