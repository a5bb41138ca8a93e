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

/**
 * What a test started (members, processes, temp dirs, clients), removed again however the test ends,
 * newest first. When a test (or a before method) fails, the log tail of every member and process it
 * holds is attached to the failure as a suppressed exception.
 *
 * <p>Registered on an instance field ({@code @RegisterExtension final Resources res = new Resources();})
 * it empties after each test; on a {@code static} field, after the class.
 */
public final class Resources extends LogsOnFailure implements BeforeAllCallback, AfterEachCallback, AfterAllCallback {

    private final Deque<AutoCloseable> stack = new ArrayDeque<>();
    private boolean classScoped;

    /** Holds {@code resource} until the test (or class) ends; returns it. */
    public synchronized <T extends AutoCloseable> T track(T resource) {
        stack.push(resource);
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
                r = stack.poll();
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
    synchronized List<?> held() {
        List<AutoCloseable> oldestFirst = new ArrayList<>(stack);
        Collections.reverse(oldestFirst);
        return oldestFirst;
    }
}
