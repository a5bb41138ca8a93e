package io.etcdj.certs.cli;

import io.etcdj.certs.CertsException;
import java.io.UncheckedIOException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * The one place that turns exceptions into output and exit codes: a single "Error: ..." line on
 * standard error and exit 1, never a stack trace.
 */
final class ErrorHandler implements IExecutionExceptionHandler {
    @Override
    public int handleExecutionException(Exception e, CommandLine commandLine, ParseResult parseResult) {
        commandLine.getErr().println("Error: " + message(e));
        commandLine.getErr().flush();
        return ExitCodes.ERROR;
    }

    static String message(Throwable e) {
        if (e instanceof CertsException || e instanceof IllegalArgumentException) {
            return e.getMessage();
        }
        if (e instanceof UncheckedIOException io) {
            return io.getCause().getMessage();
        }
        String text = e.getMessage();
        return e.getClass().getSimpleName() + (text == null ? "" : ": " + text.replace('\n', ' '));
    }
}
