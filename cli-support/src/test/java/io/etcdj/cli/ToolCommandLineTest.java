package io.etcdj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** What a user of any tool on the shared set-up sees: output, one error line, the exit code. */
class ToolCommandLineTest {

    /** A tool's own failure type, as the launcher's and benchmark's. */
    static final class ToolFailure extends RuntimeException {
        ToolFailure(String message) {
            super(message);
        }
    }

    @Command(name = "tool", mixinStandardHelpOptions = true, version = "tool 1.0")
    static final class Tool implements Callable<Integer> {
        @Option(names = "--fail", description = "how to fail")
        String fail = "";

        @Option(names = "--count", description = "a number")
        int count;

        @Override
        public Integer call() throws Exception {
            return switch (fail) {
                case "tool" -> throw new ToolFailure("the cluster file is invalid");
                case "cli" -> throw new CliException(ExitCodes.NOT_RUNNING, "no cluster is running");
                case "io" -> throw new NoSuchFileException("/no/such/file");
                case "unchecked" -> throw new UncheckedIOException(new IOException("disk full\nretry"));
                default -> count;
            };
        }
    }

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String prefix, String... args) {
        return ToolCommandLine.of(new Tool()).streams(new PrintWriter(out), new PrintWriter(err)).errorPrefix(prefix)
                .failures(e -> e instanceof ToolFailure ? new CliException(ExitCodes.BAD_CLUSTER_FILE, e.getMessage()) : null)
                .goValues().build().execute(args);
    }

    @Test
    void aCommandsResultIsItsExitCode() {
        assertEquals(7, run("Error: ", "--count", "7"));
        assertEquals("", err.toString());
    }

    @Test
    void helpAndVersionAnswerOnStandardOutput() {
        assertEquals(ExitCodes.SUCCESS, run("Error: ", "--version"));
        assertEquals("tool 1.0" + System.lineSeparator(), out.toString());
        assertEquals(ExitCodes.SUCCESS, run("Error: ", "--help"));
        assertTrue(out.toString().contains("Usage: tool [-hV] [--count=<count>] [--fail=<fail>]"), out.toString());
        assertEquals("", err.toString());
    }

    @Test
    void aToolsOwnFailureReadsAsTheToolSays() {
        assertEquals(ExitCodes.BAD_CLUSTER_FILE, run("Error: ", "--fail", "tool"));
        assertEquals(ExitCodes.NOT_RUNNING, run("Error: ", "--fail", "cli"));
        assertEquals("Error: the cluster file is invalid\nError: no cluster is running\n", err.toString().replace("\r", ""));
    }

    @Test
    void anyOtherFailureIsOneLineWithItsTypeNeverAStackTrace() {
        assertEquals(ExitCodes.ERROR, run("benchmark: ", "--fail", "io"));
        assertEquals(ExitCodes.ERROR, run("benchmark: ", "--fail", "unchecked"));
        assertEquals("benchmark: NoSuchFileException: /no/such/file\nbenchmark: IOException: disk full retry\n",
                err.toString().replace("\r", ""));
    }

    @Test
    void aBadCommandLineIsPicocliUsageWithExitTwo() {
        assertEquals(ExitCodes.USAGE, run("Error: ", "--nope"));
        assertTrue(err.toString().startsWith("Unknown option: '--nope'"), err.toString());
        assertTrue(err.toString().contains("Usage: tool"), err.toString());
    }

    @Test
    void numbersParseAsGosStrconvWhenAsked() {
        assertEquals(ExitCodes.USAGE, run("Error: ", "--count", "0x"));
        assertTrue(err.toString().contains("strconv.ParseInt: parsing \"0x\": invalid syntax"), err.toString());
    }

    @Test
    void aToolMayWordABadCommandLineItselfAsEtcdutlDoes() {
        int code = ToolCommandLine.of(new Tool()).streams(new PrintWriter(out), new PrintWriter(err))
                .parseErrors(e -> new CliException(ExitCodes.ERROR, PflagErrors.describe(e))).build().execute("--nope");
        assertEquals(ExitCodes.ERROR, code);
        assertEquals("Error: unknown flag: --nope\n", err.toString().replace("\r", ""));
    }
}
