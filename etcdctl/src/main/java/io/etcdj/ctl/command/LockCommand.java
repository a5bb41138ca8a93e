package io.etcdj.ctl.command;

import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.v3lockpb.LockRequest;
import io.etcdj.api.v3lockpb.LockResponse;
import io.etcdj.api.v3lockpb.UnlockRequest;
import io.etcdj.cli.CliException;
import io.etcdj.cli.ExitCodes;
import io.etcdj.ctl.cli.CtlCommand;
import io.etcdj.ctl.cli.Interruption;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code lock name [cmd args...]}: holds the named lock until interrupted, or while the command runs
 * (then exits with the command's exit code, as etcdctl 3.5+ does).
 */
@Command(name = "lock", description = "Acquires a named lock",
        customSynopsis = "etcdctl lock <lockname> [exec-command arg1 arg2 ...] [flags]")
public final class LockCommand extends CtlCommand {

    @Option(names = "--ttl", defaultValue = "10", description = "timeout for session")
    long ttl;

    @Parameters(arity = "0..*")
    List<String> args;

    /** With a command to run, the child must inherit the caller's stdio, terminal and signals. */
    @Override
    public boolean needsOwnProcess(boolean terminal) {
        return orEmpty(args).size() > 1;
    }

    @Override
    public boolean takesInterrupt() {
        return true;
    }

    @Override
    protected void run() {
        List<String> a = new ArrayList<>(orEmpty(args));
        if (a.isEmpty()) {
            throw CliException.badArgs("lock takes a lock name argument and an optional command to execute");
        }
        String name = a.remove(0);
        try (Session session = Interruption.cancelledOnStop(() -> new Session(ctx.client(), ttl))) {
            // a signal while waiting cancels the wait: etcdctl says "context canceled" and exits 1
            LockResponse held = Interruption.cancelledOnStop(() -> ctx.client().lock(s -> s.lock(
                    LockRequest.newBuilder().setName(Args.bytes(name)).setLease(session.leaseId()).build())));
            try {
                if (!a.isEmpty()) {
                    int code = ChildProcess.run(ctx, a, Map.of(
                            "ETCD_LOCK_KEY", held.getKey().toStringUtf8(),
                            "ETCD_LOCK_REV", Long.toString(held.getHeader().getRevision())));
                    if (code != 0) {
                        throw new CliException(code, null);
                    }
                    return;
                }
                // as etcdctl: the lock's key-value as `get` prints it (the key, then its empty value)
                RangeResponse k = ctx.client().kvRead(s -> s.range(
                        RangeRequest.newBuilder().setKey(held.getKey()).build()));
                if (k.getKvsCount() == 0) {
                    throw new CliException(ExitCodes.ERROR, "lock lost on init");
                }
                ctx.printer().get(k);
                awaitInterrupt();
            } catch (IOException e) {
                throw new CliException(ExitCodes.ERROR, e.getMessage(), e);
            } finally {
                ctx.client().lock(s -> s.unlock(UnlockRequest.newBuilder().setKey(held.getKey()).build()));
            }
        }
    }

    /**
     * Blocks until the invocation is asked to stop (Ctrl-C or SIGTERM, or in the warm server the
     * caller's signal) or the thread is interrupted; the caller then unlocks or resigns and exits 0,
     * as etcdctl does.
     */
    static void awaitInterrupt() {
        CountDownLatch stop = new CountDownLatch(1);
        try (AutoCloseable signals = Interruption.onStop(stop::countDown)) {
            stop.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
