package io.etcdj.server.osutil;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGINT and SIGTERM as etcd's osutil.HandleInterrupts treats them: the first one runs the orderly
 * shutdown, then the process dies by that same signal (etcd resets the handler and sends the signal
 * to itself), so a supervisor or a parent sees "killed by SIGTERM", not an exit status. The JVM's
 * own handling would run the shutdown hooks and exit with status 128+n (143, 130), which systemd
 * without SuccessExitStatus and etcd's e2e harness count as a failure.
 *
 * <p>{@code Signal.handle(sig, SIG_DFL)} puts the kernel's default action back (the JVM allows it for
 * the shutdown signals); the signal is then sent with the C library's kill(2) to the process itself,
 * ({@link LibC}): Java's own {@code Signal.raise} refuses a signal
 * no Java handler holds. As in etcd, a process that is PID 1 exits 0 instead (the kernel does not
 * deliver a default-action signal to init). Signals that arrive while the shutdown runs are
 * ignored: the first one decides.
 *
 * <p>A signal the process inherited as ignored is taken too, as Go's {@code signal.Notify} takes it
 * for etcd: a script's background job starts with SIGINT ignored, and {@code etcd &} followed by
 * {@code kill -INT} must stop the member. The JVM installs no handler for an ignored shutdown
 * signal, so its disposition is first set back to the default through the C library.
 */
public final class Interrupts {

    /** How long to wait for the raised signal to end the process before exiting with 128+n instead. */
    private static final long RAISE_GRACE_MILLIS = 5_000;

    private Interrupts() {
    }

    /**
     * Handles SIGINT and SIGTERM from now on: {@code announce} gets Go's name of the signal
     * ("interrupt", "terminated") for the log line, then {@code shutdown} runs, then the process
     * ends by the signal. Any other end of the JVM (System.exit, SIGHUP) runs {@code shutdown} in a
     * shutdown hook named {@code hookName}; it runs once in all.
     */
    public static void handle(Consumer<String> announce, Runnable shutdown, String hookName) {
        AtomicBoolean shutDown = new AtomicBoolean();
        Runnable once = () -> {
            if (shutDown.compareAndSet(false, true)) {
                shutdown.run();
            }
        };
        AtomicBoolean signalled = new AtomicBoolean();
        SignalHandler handler = sig -> {
            if (!signalled.compareAndSet(false, true)) {
                return;
            }
            try {
                announce.accept(goName(sig));
                once.run();
            } finally {
                dieBy(sig);
            }
        };
        String inherited = procStatus();
        for (String name : new String[] {"INT", "TERM"}) {
            Signal sig = new Signal(name);
            if (ignoredIn(inherited, sig.getNumber())) {
                takeBack(sig.getNumber());
            }
            Signal.handle(sig, handler);
        }
        // once a signal is being handled, the work the shutdown ended may return and its thread call
        // System.exit: the hook then holds the exit until the signal ends the process
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                if (signalled.get()) {
                    awaitDeath();
                }
                once.run();
            }, hookName));
        } catch (IllegalStateException exiting) {
            // a signal came before the handlers: the JVM's own handling already ends the process
        }
    }

    /**
     * {@link #handle} from before a start: a signal that comes while the service starts ends the
     * process by that signal too (as Go's default handling ends etcd's), with nothing to close
     * until the start gives the returned {@link Shutdown} what to close.
     */
    public static Shutdown handleFromStart(Consumer<String> announce, String hookName) {
        Shutdown shutdown = new Shutdown();
        handle(announce, shutdown::run, hookName);
        return shutdown;
    }

    /** What the orderly shutdown closes, once the start has made it. */
    public static final class Shutdown {
        private final AtomicReference<Runnable> close = new AtomicReference<>(() -> { });

        private Shutdown() {
        }

        /** From now on the shutdown runs {@code close}. */
        public void closes(Runnable close) {
            this.close.set(close);
        }

        private void run() {
            close.get().run();
        }
    }

    /** The process's status as the kernel reports it; empty without procfs (nothing known ignored). */
    private static String procStatus() {
        try {
            return Files.readString(Path.of("/proc/self/status"));
        } catch (IOException e) {
            return "";
        }
    }

    private static void takeBack(int signal) {
        try {
            LibC.defaultAction(signal);
        } catch (LinkageError | RuntimeException e) {
            System.err.println("etcd: cannot take back the ignored signal " + signal + ": " + e);
        }
    }

    /** Whether {@code /proc/<pid>/status} text shows {@code signal} ignored (its SigIgn mask). */
    static boolean ignoredIn(String procStatus, int signal) {
        for (String line : procStatus.split("\n")) {
            if (line.startsWith("SigIgn:")) {
                long mask = Long.parseUnsignedLong(line.substring("SigIgn:".length()).strip(), 16);
                return (mask & (1L << (signal - 1))) != 0;
            }
        }
        return false;
    }

    /** Go's {@code syscall.Signal.String()} for the two signals handled. */
    static String goName(Signal sig) {
        return sig.getName().equals("INT") ? "interrupt" : "terminated";
    }

    private static void awaitDeath() {
        try {
            Thread.sleep(2 * RAISE_GRACE_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void dieBy(Signal sig) {
        System.out.flush();
        System.err.flush();
        if (ProcessHandle.current().pid() == 1) {
            Runtime.getRuntime().halt(0);
        }
        Signal.handle(sig, SignalHandler.SIG_DFL);
        try {
            int errno = LibC.kill(ProcessHandle.current().pid(), sig.getNumber());
            if (errno != 0) {
                System.err.println("etcd: cannot send " + goName(sig) + " to itself: errno " + errno);
            }
        } catch (LinkageError | RuntimeException e) {
            System.err.println("etcd: cannot send " + goName(sig) + " to itself: " + e);
        }
        // the signal ends the process once delivered; failing that, the status says which signal it
        // was, as the JVM's would
        try {
            Thread.sleep(RAISE_GRACE_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Runtime.getRuntime().halt(128 + sig.getNumber());
    }
}
