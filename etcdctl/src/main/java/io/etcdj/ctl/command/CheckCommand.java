package io.etcdj.ctl.command;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.CompactionRequest;
import io.etcdj.api.etcdserverpb.DefragmentRequest;
import io.etcdj.api.etcdserverpb.DeleteRangeRequest;
import io.etcdj.api.etcdserverpb.DeleteRangeResponse;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.cli.CliException;
import io.etcdj.cli.ExitCodes;
import io.etcdj.cli.progress.ProgressLine;
import io.etcdj.cli.progress.Terminals;
import io.etcdj.client.EtcdClient;
import io.etcdj.client.EtcdClientException;
import io.etcdj.ctl.check.DatascaleLoad;
import io.etcdj.ctl.check.DatascaleRun;
import io.etcdj.ctl.check.LatencyStats;
import io.etcdj.ctl.check.MemoryMetric;
import io.etcdj.ctl.check.PerfLoad;
import io.etcdj.ctl.check.PerfRun;
import io.etcdj.ctl.check.ProgressCounter;
import io.etcdj.ctl.cli.CtlCommand;
import io.etcdj.ctl.cli.CtlContext;
import io.etcdj.ctl.printer.KeyRanges;
import io.etcdj.ctl.printer.Out;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code check perf} (etcdctl's one-minute write-load check with its PASS/FAIL verdict) and
 * {@code check datascale} (the memory a member uses to hold a workload's data).
 */
@Command(name = "check", description = "commands for checking properties of the etcd cluster",
        customSynopsis = "etcdctl check <subcommand> [flags]",
        subcommands = {CheckCommand.Datascale.class, CheckCommand.Perf.class})
public final class CheckCommand {

    /**
     * The width etcdctl's counter is drawn to: the controlling terminal's columns, which etcdctl's
     * progress-bar library reads from {@code /dev/tty} whatever stdout is. Only for this process's
     * own stdout (the checks run in a process of their own; output captured in-process has no bar).
     */
    static int counterWidth(CtlContext ctx) {
        return ctx.out().stream() == System.out ? Terminals.controllingTerminalColumns() : 0;
    }

    /** Refuses a prefix that already holds keys, as both checks do. */
    static void requireEmpty(EtcdClient client, String prefix) {
        ByteString key = ByteString.copyFromUtf8(prefix);
        RangeResponse existing = client.kvRead(s -> s.range(RangeRequest.newBuilder().setKey(key)
                .setRangeEnd(KeyRanges.prefixEnd(key)).setLimit(1).build()));
        if (existing.getKvsCount() > 0) {
            throw new CliException(ExitCodes.INVALID_INPUT, "prefix \"" + prefix + "\" has keys. Delete with etcdctl del --prefix "
                    + prefix + " first");
        }
    }

    static DeleteRangeResponse deletePrefix(EtcdClient client, String prefix) {
        ByteString key = ByteString.copyFromUtf8(prefix);
        return client.kv(s -> s.deleteRange(DeleteRangeRequest.newBuilder().setKey(key)
                .setRangeEnd(KeyRanges.prefixEnd(key)).build()));
    }

    /**
     * {@link #deletePrefix}, with a progress line (beyond etcd) when the deletion takes over a
     * second: etcdctl prints nothing while it deletes the check's keys, which for the larger loads
     * takes a while. Drawn only once etcdctl's own counter has ended its line, so the counter's text
     * on the screen is never erased.
     */
    static DeleteRangeResponse deletePrefixShowingProgress(CtlContext ctx, EtcdClient client, String prefix,
                                                           String check, ProgressCounter counter) {
        ProgressLine line = counter.endedItsLine()
                ? CommandProgress.line(ctx, check + ": deleting the check's keys", ProgressLine.Unit.COUNT, "")
                : ProgressLine.off();
        return line.during(Duration.ofSeconds(1), () -> deletePrefix(client, prefix));
    }

    /** --auto-compact and --auto-defrag after a check, with etcdctl's progress lines. */
    static void compactAndDefrag(CtlContext ctx, EtcdClient client, long rev, boolean compact, boolean defrag) {
        if (compact) {
            ctx.out().println("Compacting with revision " + rev);
            client.kv(s -> s.compact(CompactionRequest.newBuilder().setRevision(rev).setPhysical(true).build()));
            ctx.out().println("Compacted with revision " + rev);
        }
        if (defrag) {
            for (String ep : ctx.endpoints()) {
                ctx.out().println("Defragmenting \"" + ep + "\"");
                try (EtcdClient one = ctx.newClient(List.of(ep))) {
                    one.maintenance(s -> s.defragment(DefragmentRequest.getDefaultInstance()));
                }
                ctx.out().println("Defragmented \"" + ep + "\"");
            }
        }
    }

    /** Prints etcdctl's error summary; true when there were errors. */
    static boolean printErrors(Out out, LatencyStats stats) {
        Map<String, Integer> errors = stats.errors();
        if (errors.isEmpty()) {
            return false;
        }
        out.println("FAIL: too many errors");
        errors.forEach((error, count) -> out.println("FAIL: ERROR(" + error + ") -> " + count));
        return true;
    }

    /**
     * Sustains the model's write rate for a minute, then passes when throughput is above 90% of the
     * rate, no request took over 0.5 s, the latency standard deviation is at most 0.1 s, and no
     * request failed. The keys are deleted afterwards.
     */
    @Command(name = "perf", description = "Check the performance of the etcd cluster",
            customSynopsis = "etcdctl check perf [options] [flags]")
    public static final class Perf extends CtlCommand {

        @Option(names = "--load", defaultValue = "s",
                description = "The performance check's workload model. Accepted workloads: s(small), m(medium), l(large), xl(xLarge)")
        String load;

        @Option(names = "--prefix", defaultValue = "/etcdctl-check-perf/",
                description = "The prefix for writing the performance check's keys.")
        String prefix;

        @Option(names = "--auto-compact", arity = "0..1",
                description = "Compact storage with last revision after test is finished.")
        boolean autoCompact;

        @Option(names = "--auto-defrag", arity = "0..1", description = "Defragment storage after test is finished.")
        boolean autoDefrag;

        @Parameters(arity = "0..*", hidden = true)
        List<String> ignored;

        private final Duration duration;

        /**
         * Always: the counter's width comes from the caller's controlling terminal, which only a
         * process of the caller's own has (and at a terminal the clean-up's progress line needs its
         * stderr). A check runs a minute; a JVM's start does not matter.
         */
        @Override
        public boolean needsOwnProcess(boolean terminal) {
            return true;
        }

        public Perf() {
            this(PerfLoad.DURATION);
        }

        /** A shorter run for tests; etcdctl always runs a minute. */
        public Perf(Duration duration) {
            this.duration = duration;
        }

        @Override
        protected void run() {
            PerfLoad model = PerfLoad.byName(load)
                    .orElseThrow(() -> new CliException(ExitCodes.BAD_FEATURE, "unknown load option " + load));
            EtcdClient client = ctx.client();
            requireEmpty(client, prefix);
            PerfRun.Result result;
            ProgressCounter bar = ProgressCounter.seconds(ctx.out(), (int) duration.toSeconds(), counterWidth(ctx));
            try (bar) {
                result = new PerfRun(client, model, prefix, duration).run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CliException(ExitCodes.INTERRUPTED, "interrupted");
            }
            cleanUp(client, bar);
            if (!verdict(ctx.out(), result, model)) {
                ctx.out().println("FAIL");
                throw new CliException(ExitCodes.ERROR, null);
            }
            ctx.out().println("PASS");
        }

        private void cleanUp(EtcdClient client, ProgressCounter bar) {
            DeleteRangeResponse deleted;
            try {
                deleted = deletePrefixShowingProgress(ctx, client, prefix, "check perf", bar);
            } catch (EtcdClientException e) {
                ctx.out().println("FAIL: Cleanup failed during key deletion: ERROR(" + e.getMessage() + ")");
                return;
            }
            compactAndDefrag(ctx, client, deleted.getHeader().getRevision(), autoCompact, autoDefrag);
        }

        /** Prints etcdctl's PASS/FAIL lines for each criterion; true when all pass. */
        static boolean verdict(Out out, PerfRun.Result result, PerfLoad model) {
            LatencyStats s = result.stats();
            boolean ok = !printErrors(out, s);
            double rps = result.requestsPerSecond();
            if (rps / model.writesPerSecond() <= 0.9) {
                out.println("FAIL: Throughput too low: " + ((int) rps + 1) + " writes/s");
                ok = false;
            } else {
                out.println("PASS: Throughput is " + ((int) rps + 1) + " writes/s");
            }
            if (s.slowest() > 0.5) {
                out.println("Slowest request took too long: " + seconds(s.slowest()) + "s");
                ok = false;
            } else {
                out.println("PASS: Slowest request took " + seconds(s.slowest()) + "s");
            }
            if (s.stddev() > 0.1) {
                out.println("Stddev too high: " + seconds(s.stddev()) + "s");
                ok = false;
            } else {
                out.println("PASS: Stddev is " + seconds(s.stddev()) + "s");
            }
            return ok;
        }

        /** Go's %f. */
        private static String seconds(double v) {
            return String.format(Locale.ROOT, "%f", v);
        }
    }

    /**
     * Writes the model's key-value pairs and reports how much the first endpoint's resident memory grew
     * (from its /metrics page); fails only when requests failed or the metric cannot be read.
     */
    @Command(name = "datascale",
            description = "Check the memory usage of holding data for different workloads on a given server endpoint.",
            customSynopsis = "etcdctl check datascale [options] [flags]",
            header = {"If no endpoint is provided, localhost will be used. "
                + "If multiple endpoints are provided, first endpoint will be used."})
    public static final class Datascale extends CtlCommand {

        @Option(names = "--load", defaultValue = "s",
                description = "The datascale check's workload model. Accepted workloads: s(small), m(medium), l(large), xl(xLarge)")
        String load;

        @Option(names = "--prefix", defaultValue = "/etcdctl-check-datascale/",
                description = "The prefix for writing the datascale check's keys.")
        String prefix;

        @Option(names = "--auto-compact", arity = "0..1",
                description = "Compact storage with last revision after test is finished.")
        boolean autoCompact;

        @Option(names = "--auto-defrag", arity = "0..1", description = "Defragment storage after test is finished.")
        boolean autoDefrag;

        @Parameters(arity = "0..*", hidden = true)
        List<String> ignored;

        /**
         * Always: the counter's width comes from the caller's controlling terminal, which only a
         * process of the caller's own has (and at a terminal the clean-up's progress line needs its
         * stderr). A check runs a minute; a JVM's start does not matter.
         */
        @Override
        public boolean needsOwnProcess(boolean terminal) {
            return true;
        }

        @Override
        protected void run() {
            DatascaleLoad model = DatascaleLoad.byName(load)
                    .orElseThrow(() -> new CliException(ExitCodes.BAD_FEATURE, "unknown load option " + load));
            EtcdClient client = ctx.client();
            String endpoint = ctx.endpoints().get(0);
            requireEmpty(client, prefix);
            double before = MemoryMetric.residentBytes(endpoint, ctx.out());
            if (before == 0) {
                ctx.out().println("FAIL: Could not read process_resident_memory_bytes before the put operations.");
                throw new CliException(ExitCodes.ERROR, null);
            }
            ctx.out().println("Start data scale check for work load [" + model.pairs() + " key-value pairs, "
                    + DatascaleLoad.KEY_VALUE_BYTES + " bytes per key-value, " + model.clients() + " concurrent clients].");
            LatencyStats stats;
            ProgressCounter bar = ProgressCounter.steps(ctx.out(), model.pairs(), counterWidth(ctx));
            try (bar) {
                stats = new DatascaleRun(client, model, prefix).run(bar);
                bar.finish();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CliException(ExitCodes.INTERRUPTED, "interrupted");
            }
            double after = MemoryMetric.residentBytes(endpoint, ctx.out());
            if (after == 0) {
                ctx.out().println("FAIL: Could not read process_resident_memory_bytes after the put operations.");
                throw new CliException(ExitCodes.ERROR, null);
            }
            DeleteRangeResponse deleted = deletePrefixShowingProgress(ctx, client, prefix, "check datascale", bar);
            compactAndDefrag(ctx, client, deleted.getHeader().getRevision(), autoCompact, autoDefrag);
            if (printErrors(ctx.out(), stats)) {
                throw new CliException(ExitCodes.ERROR, null);
            }
            ctx.out().println("PASS: Approximate system memory used : "
                    + String.format(Locale.ROOT, "%.2f", (after - before) / (1024 * 1024)) + " MB.");
        }
    }
}
