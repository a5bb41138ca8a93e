package io.etcdj.harness;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * What a test started (members, processes, temp dirs, clients), removed again however the test ends,
 * newest first. When a test (or a before method) fails, the log tail of every member and process it
 * holds is attached to the failure as a suppressed exception.
 *
 * <p>Registered on an instance field ({@code @RegisterExtension final Resources res = new Resources();})
 * it empties after each test; on a {@code static} field, after the class.
 */
public final class Resources implements BeforeAllCallback, AfterEachCallback, AfterAllCallback,
        TestExecutionExceptionHandler, LifecycleMethodExecutionExceptionHandler {

    private final Deque<AutoCloseable> held = new ArrayDeque<>();
    private boolean classScoped;

    /** Holds {@code resource} until the test (or class) ends; returns it. */
    public synchronized <T extends AutoCloseable> T track(T resource) {
        held.push(resource);
        return resource;
    }

    /** A new temp dir, deleted (with everything in it) when the test ends. */
    public Path dir(String prefix) {
        Path dir = TempDirs.create(prefix);
        track(() -> TempDirs.delete(dir));
        return dir;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        classScoped = true;
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        if (!classScoped) {
            closeAll();
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        closeAll();
    }

    /** Closes everything held, newest first; a failure to close one does not keep the others open. */
    public void closeAll() throws Exception {
        Exception first = null;
        while (true) {
            AutoCloseable r;
            synchronized (this) {
                r = held.poll();
            }
            if (r == null) {
                break;
            }
            try {
                r.close();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

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

    private synchronized Throwable withLogs(Throwable failure) {
        List<AutoCloseable> oldestFirst = new ArrayList<>(held);
        Collections.reverse(oldestFirst);
        for (AutoCloseable r : oldestFirst) {
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
