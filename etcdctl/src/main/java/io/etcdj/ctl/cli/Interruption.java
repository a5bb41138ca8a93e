package io.etcdj.ctl.cli;

import io.etcdj.cli.CliException;
import io.etcdj.client.EtcdClientException;
import io.grpc.Context;
import io.grpc.Status;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The "stop" of one invocation in a shared JVM. A direct run stops when its JVM gets Ctrl-C or
 * SIGTERM; in the warm server many invocations share a JVM, so each gets a {@link Stop} the server
 * fires when that invocation's caller is signalled. Threads the invocation starts inherit it.
 */
public final class Interruption {

    private static final InheritableThreadLocal<Stop> CURRENT = new InheritableThreadLocal<>();
    /** SIGINT in a process of its own: signals are the process's, so this is too (null until needed). */
    private static OwnProcessInterrupt ownProcess;

    private Interruption() {
    }

    /**
     * One invocation's stop: fired once by its caller's signal. While a command has taken the
     * signal ({@link #onStop}), the signal is the command's to answer, as etcdctl's lock and elect
     * answer it (unlock and exit 0, or "context canceled" and exit 1) instead of dying by it.
     */
    public static final class Stop {
        private final CountDownLatch fired = new CountDownLatch(1);
        private final CommandKnown command = new CommandKnown(false);
        private final AtomicInteger takers = new AtomicInteger();

        public void fire() {
            fired.countDown();
        }

        /**
         * The invocation's command takes SIGINT for the rest of the call (lock, elect) or not; also
         * said, as not, when the invocation ends without running one. Only the first call counts.
         */
        public void commandKnown(boolean takesInterrupt) {
            command.set(takesInterrupt);
        }

        /**
         * Whether the running command answers {@code signal} itself: only SIGINT is ever taken. A
         * signal that comes while the command line is still being parsed waits until the command is
         * known, as a Go etcdctl would already be at its command.
         */
        public boolean taken(int signal) {
            return signal == OwnProcessInterrupt.SIGINT && (command.awaitTakes() || takers.get() > 0);
        }
    }

    /**
     * The first statement of main in a process of its own: until the command is known
     * ({@link #commandKnown}), SIGINT is held rather than ending the JVM, so that lock and elect
     * answer a Ctrl-C that came while the JVM was starting as etcdctl, up within milliseconds,
     * answers it. Where the JVM cannot take SIGINT (-Xrs), it keeps the JVM's own handling.
     */
    public static void holdUntilCommandKnown() {
        try {
            sun.misc.Signal.handle(new sun.misc.Signal("INT"), ownProcess(false).handler());
        } catch (IllegalArgumentException notOurs) {
            // the VM or the OS keeps SIGINT: nothing to hold
        }
    }

    /** Said before the command runs: whether it takes SIGINT itself (etcdctl's lock and elect). */
    public static void commandKnown(boolean takesInterrupt) {
        Stop perCall = current();
        if (perCall != null) {
            perCall.commandKnown(takesInterrupt);
            return;
        }
        synchronized (Interruption.class) {
            if (ownProcess != null) {
                ownProcess.commandKnown(takesInterrupt);
            }
        }
    }

    /** The process's SIGINT handling, made on first use: from main's start, or by the first command that takes it. */
    private static synchronized OwnProcessInterrupt ownProcess(boolean commandKnown) {
        if (ownProcess == null) {
            ownProcess = new OwnProcessInterrupt(commandKnown, System::exit);
        }
        return ownProcess;
    }

    /** The stop of the invocation running on this thread, or null in a process of its own. */
    public static Stop current() {
        return CURRENT.get();
    }

    /** Marks the calling thread (and threads it starts from now on) as running the invocation {@code stop} ends. */
    public static void bind(Stop stop) {
        CURRENT.set(stop);
    }

    /**
     * Runs {@code onStop} once this invocation is asked to stop: Ctrl-C in a process of its own (the
     * signal is taken, so the command can finish its work and exit as etcdctl does, e.g. unlocking
     * and exiting 0), the caller's Ctrl-C in the warm server. etcdctl's lock and elect take only
     * SIGINT ({@code signal.Notify(sigc, os.Interrupt, os.Kill)}: SIGKILL cannot be taken), so
     * SIGTERM still ends them as it ends any process. Closing the handle gives the signal back.
     */
    public static AutoCloseable onStop(Runnable onStop) {
        Stop perCall = current();
        if (perCall != null) {
            perCall.takers.incrementAndGet();
            AutoCloseable waiter = whenStopped(onStop);
            return () -> {
                waiter.close();
                perCall.takers.decrementAndGet();
            };
        }
        // (re)installed while taken: the shell's line reader puts its own handler in place between lines
        OwnProcessInterrupt own = ownProcess(true);
        sun.misc.Signal interrupt = new sun.misc.Signal("INT");
        sun.misc.SignalHandler previous = sun.misc.Signal.handle(interrupt, own.handler());
        AutoCloseable taking = own.take(onStop);
        return () -> {
            taking.close();
            sun.misc.Signal.handle(interrupt, previous);
        };
    }

    /**
     * Runs {@code cleanUp} when the warm server stops this invocation for its caller's signal or
     * because the caller is gone, without taking the signal (the call still ends by it): a watch
     * cancels its stream at once, as a killed etcdctl's closed connection cancels it, instead of when
     * the server gives up waiting for the command. A process of its own needs nothing: the signal
     * ends it and its connections with it.
     */
    public static AutoCloseable whenStopped(Runnable cleanUp) {
        Stop perCall = current();
        if (perCall == null) {
            return () -> { };
        }
        Thread waiter = new Thread(() -> {
            try {
                perCall.fired.await();
                cleanUp.run();
            } catch (InterruptedException done) {
                // the command ended first
            }
        }, "interruption");
        waiter.setDaemon(true);
        waiter.start();
        return waiter::interrupt;
    }

    /**
     * Runs {@code call} (gRPC calls that may wait: a lock, a campaign) so that a stop cancels it,
     * as etcdctl cancels its context on SIGINT: the call then fails with "context canceled" (etcdctl
     * prints {@code Error: context canceled} and exits 1).
     */
    public static <T> T cancelledOnStop(Supplier<T> call) {
        Context.CancellableContext context = Context.current().withCancellation();
        try (AutoCloseable signals = onStop(() -> context.cancel(null))) {
            return context.call(call::get);
        } catch (EtcdClientException | CliException e) {
            throw e;
        } catch (RuntimeException e) {
            if (context.isCancelled()) {
                throw new EtcdClientException(Status.Code.CANCELLED, "context canceled", e);
            }
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        } finally {
            context.cancel(null);
        }
    }
}
