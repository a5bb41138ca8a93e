package io.etcdj.ctl.command;

import io.etcdj.api.etcdserverpb.CompactionRequest;
import io.etcdj.api.etcdserverpb.DefragmentRequest;
import io.etcdj.api.etcdserverpb.DeleteRangeRequest;
import io.etcdj.api.etcdserverpb.DeleteRangeResponse;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.client.EtcdClient;
import io.etcdj.client.EtcdClientException;
import io.etcdj.ctl.check.LatencyStats;
import io.etcdj.ctl.check.PerfLoad;
import io.etcdj.ctl.check.PerfRun;
import io.etcdj.ctl.check.ProgressCounter;
import io.etcdj.ctl.cli.CtlCommand;
import io.etcdj.ctl.cli.CtlException;
import io.etcdj.ctl.cli.ExitCodes;
import io.etcdj.ctl.printer.KeyRanges;
import io.etcdj.ctl.printer.Out;
import com.google.protobuf.ByteString;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@code check perf}: etcdctl's one-minute write-load check with its PASS/FAIL verdict. */
@Command(name = "check", description = "commands for checking properties of the etcd cluster",
        customSynopsis = "etcdctl check <subcommand> [flags]",
        subcommands = {CheckCommand.Perf.class})
public final class CheckCommand {

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
                    .orElseThrow(() -> new CtlException(ExitCodes.BAD_FEATURE, "unknown load option " + load));
            EtcdClient client = ctx.client();
            ByteString key = ByteString.copyFromUtf8(prefix);
            RangeResponse existing = client.kvRead(s -> s.range(RangeRequest.newBuilder().setKey(key)
                    .setRangeEnd(KeyRanges.prefixEnd(key)).setLimit(1).build()));
            if (existing.getKvsCount() > 0) {
                throw new CtlException(ExitCodes.INVALID_INPUT, "prefix \"" + prefix + "\" has keys. Delete with etcdctl del --prefix "
                        + prefix + " first");
            }
            PerfRun.Result result;
            try (ProgressCounter ignoredBar = new ProgressCounter(ctx.out(), (int) duration.toSeconds())) {
                result = new PerfRun(client, model, prefix, duration).run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CtlException(ExitCodes.INTERRUPTED, "interrupted");
            }
            cleanUp(client, key);
            if (!verdict(ctx.out(), result, model)) {
                ctx.out().println("FAIL");
                throw new CtlException(ExitCodes.ERROR, null);
            }
            ctx.out().println("PASS");
        }

        private void cleanUp(EtcdClient client, ByteString key) {
            DeleteRangeResponse deleted;
            try {
                deleted = client.kv(s -> s.deleteRange(DeleteRangeRequest.newBuilder().setKey(key)
                        .setRangeEnd(KeyRanges.prefixEnd(key)).build()));
            } catch (EtcdClientException e) {
                ctx.out().println("FAIL: Cleanup failed during key deletion: ERROR(" + e.getMessage() + ")");
                return;
            }
            if (autoCompact) {
                long rev = deleted.getHeader().getRevision();
                ctx.out().println("Compacting with revision " + rev);
                client.kv(s -> s.compact(CompactionRequest.newBuilder().setRevision(rev).setPhysical(true).build()));
                ctx.out().println("Compacted with revision " + rev);
            }
            if (autoDefrag) {
                for (String ep : ctx.options().endpoints()) {
                    ctx.out().println("Defragmenting \"" + ep + "\"");
                    try (EtcdClient one = ctx.newClient(List.of(ep))) {
                        one.maintenance(s -> s.defragment(DefragmentRequest.getDefaultInstance()));
                    }
                    ctx.out().println("Defragmented \"" + ep + "\"");
                }
            }
        }

        /** Prints etcdctl's PASS/FAIL lines for each criterion; true when all pass. */
        static boolean verdict(Out out, PerfRun.Result result, PerfLoad model) {
            LatencyStats s = result.stats();
            boolean ok = true;
            Map<String, Integer> errors = s.errors();
            if (!errors.isEmpty()) {
                out.println("FAIL: too many errors");
                errors.forEach((error, count) -> out.println("FAIL: ERROR(" + error + ") -> " + count));
                ok = false;
            }
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
}
