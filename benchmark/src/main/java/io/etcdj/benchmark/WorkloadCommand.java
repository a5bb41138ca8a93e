package io.etcdj.benchmark;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * The shared flow of the request/response workloads: validate flags, open the connections, run
 * the requests through the clients, print the report. Subclasses say what one request is.
 */
abstract class WorkloadCommand implements Callable<Integer> {
    @ParentCommand
    Main root;

    @Spec
    CommandSpec spec;

    /** The workload's name in the RESULT line. */
    abstract String name();

    abstract long total();

    /** Checks the workload's own flags and builds its request sender over the pool. */
    abstract RequestSender sender(ChannelPool pool);

    @Override
    public Integer call() throws InterruptedException {
        ConnectionOptions c = root.connection;
        c.validate();
        List<String> targets = Endpoints.parse(c.endpoints);
        PrintWriter out = spec.commandLine().getOut();
        try (ChannelPool pool = new ChannelPool(targets, c.conns)) {
            RequestSender sender = sender(pool);
            RunResult result = new LoadRunner(c.clients, total(), sender).run();
            RunSummary summary = RunSummary.of(name(), c.clients, c.conns, total(), result);
            ReportPrinter.print(out, summary);
            // Like a failed command, a run in which nothing succeeded must not look like a result.
            return summary.stats().count() == 0 ? 1 : 0;
        }
    }
}
