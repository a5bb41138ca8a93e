package io.etcdj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/** What a user sees for each kind of failure: one "Error:" line and etcd's exit code. */
class ErrorReporterTest {

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    private String printed() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void cliExceptionKeepsItsExitCode() {
        assertEquals(128, ErrorReporter.report(
                CliException.badArgs("put command needs 1 argument and input from stdin or 2 arguments"), err));
        assertEquals("Error: put command needs 1 argument and input from stdin or 2 arguments\n", printed());
    }

    @Test
    void aFailureWhoseTextWasPrintedAlreadyPrintsNothingMore() {
        assertEquals(1, ErrorReporter.report(new CliException(ExitCodes.ERROR, null), err));
        assertEquals("", printed());
    }

    @Test
    void anyOtherFailureIsExitCodeOneWithItsMessage() {
        assertEquals(1, ErrorReporter.report(new IllegalStateException("etcdserver: key not found"), err));
        assertEquals(1, ErrorReporter.report(new UnsatisfiedLinkError(), err));
        assertEquals("Error: etcdserver: key not found\nError: java.lang.UnsatisfiedLinkError\n", printed());
    }

    @Test
    void unsupportedOutputFormats() {
        CliException e = Assertions.assertThrows(CliException.class, () -> OutputFormat.parse("xml"));
        assertEquals(4, ErrorReporter.report(e, err));
        assertEquals(4, ErrorReporter.report(CliException.unsupportedFormat("protobuf"), err));
        assertEquals("Error: unsupported output format\nError: protobuf not supported as output format\n", printed());
        assertEquals(OutputFormat.TABLE, OutputFormat.parse("table"));
    }
}
