package io.etcdj.harness;

import java.util.List;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * Attaches the log tails of an extension's members and processes to a failing test (or before
 * method), as suppressed exceptions without stack traces, so the test report shows what they said.
 */
abstract class LogsOnFailure implements TestExecutionExceptionHandler, LifecycleMethodExecutionExceptionHandler {

    /** What the extension holds now, oldest first; members and processes among it have logs. */
    abstract List<?> held();

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        throw withLogs(failure);
    }

    @Override
    public void handleBeforeAllMethodExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        throw withLogs(failure);
    }

    @Override
    public void handleBeforeEachMethodExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        throw withLogs(failure);
    }

    private Throwable withLogs(Throwable failure) {
        for (Object r : held()) {
            if (r instanceof EtcdMember m) {
                failure.addSuppressed(new ProcessLog("log of " + m.describe(), m.logTail()));
            } else if (r instanceof LoggedProcess p) {
                failure.addSuppressed(new ProcessLog("log of " + p, p.logTail(60)));
            }
        }
        return failure;
    }

    /** Carries a process's log tail into the test report; it has no stack trace of its own. */
    static final class ProcessLog extends Exception {
        ProcessLog(String what, String tail) {
            super(what + ":\n" + tail, null, false, false);
        }
    }
}
