package io.etcdj.server.gateway;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.MonitorInfo;
import java.lang.management.ThreadInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;

/**
 * --enable-pprof: the JVM's counterparts of Go's /debug/pprof, under /debug/jvm/ on the client
 * URLs. {@code threads}: every thread's stack, locks and state (Go's goroutine?debug=2);
 * {@code jfr?seconds=N}: a Java Flight Recorder recording of N seconds with the JDK's
 * "profile" settings, CPU samples, allocations, locks and I/O (Go's profile?seconds=N), returned
 * as a .jfr file for JDK Mission Control or {@code jfr print}.
 */
final class JvmDebug {
    static final String PREFIX = "/debug/jvm/";
    static final String INDEX = "/debug/jvm/\n\n"
            + "threads         every thread's stack, state and held locks (as jstack prints them)\n"
            + "jfr?seconds=N   a Java Flight Recorder recording of N seconds (default 30, at most 600), profile settings\n";
    private static final long MAX_SECONDS = 600;
    /** Recordings run here, one after another, never on an event loop. */
    private static final ExecutorService RECORDER = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "jfr-recording");
        t.setDaemon(true);
        return t;
    });

    private JvmDebug() {
    }

    /** A thread dump in jstack's layout. */
    static String threads() {
        StringBuilder sb = new StringBuilder(64 * 1024);
        sb.append("Full thread dump ").append(System.getProperty("java.vm.name")).append(" (")
                .append(System.getProperty("java.vm.version")).append("):\n\n");
        for (ThreadInfo t : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
            sb.append('"').append(t.getThreadName()).append("\" #").append(t.getThreadId())
                    .append(t.isDaemon() ? " daemon" : "").append(" prio=").append(t.getPriority()).append('\n')
                    .append("   java.lang.Thread.State: ").append(t.getThreadState()).append('\n');
            StackTraceElement[] stack = t.getStackTrace();
            for (int i = 0; i < stack.length; i++) {
                sb.append("\tat ").append(stack[i]).append('\n');
                if (i == 0 && t.getLockInfo() != null) {
                    sb.append("\t- ").append(t.getThreadState() == Thread.State.BLOCKED ? "waiting to lock " : "parking to wait for ")
                            .append(t.getLockInfo()).append('\n');
                }
                for (MonitorInfo m : t.getLockedMonitors()) {
                    if (m.getLockedStackDepth() == i) {
                        sb.append("\t- locked ").append(m).append('\n');
                    }
                }
            }
            LockInfo[] synchronizers = t.getLockedSynchronizers();
            if (synchronizers.length > 0) {
                sb.append("\n   Locked ownable synchronizers:\n");
                for (LockInfo l : synchronizers) {
                    sb.append("\t- ").append(l).append('\n');
                }
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** The {@code seconds} parameter: a whole number from 1 to 600, 30 when absent; null when malformed. */
    static Long seconds(String param) {
        if (param == null || param.isEmpty()) {
            return 30L;
        }
        try {
            long s = Long.parseLong(param);
            return s >= 1 && s <= MAX_SECONDS ? s : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** Records for {@code duration} and completes with the .jfr file's bytes. */
    static CompletableFuture<byte[]> record(Duration duration) {
        return CompletableFuture.supplyAsync(() -> {
            Path file = null;
            try (Recording r = new Recording(Configuration.getConfiguration("profile"))) {
                r.setName("etcd --enable-pprof");
                r.start();
                Thread.sleep(duration.toMillis());
                r.stop();
                file = Files.createTempFile("etcd-", ".jfr");
                r.dump(file);
                return Files.readAllBytes(file);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (ParseException e) {
                throw new IllegalStateException("the JDK's profile settings do not parse: " + e.getMessage(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("recording interrupted", e);
            } finally {
                if (file != null) {
                    try {
                        Files.deleteIfExists(file);
                    } catch (IOException ignored) {
                        // a temporary file; the OS cleans its temp directory
                    }
                }
            }
        }, RECORDER);
    }
}
