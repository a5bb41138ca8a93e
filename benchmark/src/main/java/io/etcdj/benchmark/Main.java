package io.etcdj.benchmark;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code benchmark}: the entry point; global connection flags, workloads as subcommands. */
@Command(name = "benchmark", mixinStandardHelpOptions = true, version = "etcd-benchmark (etcdj) 0.1.0",
        description = "A low-level benchmark tool for etcd v3 endpoints.",
        subcommands = {PutCommand.class, RangeCommand.class, TxnPutCommand.class, WatchLatencyCommand.class})
public final class Main implements Runnable {
    @Mixin
    ConnectionOptions connection = new ConnectionOptions();

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a workload subcommand is required");
    }

    public static void main(String[] args) {
        System.exit(commandLine(new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true),
                new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true)).execute(args));
    }

    /** The configured command line; tests pass their own writers. */
    static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new Main());
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler((ex, line, parseResult) -> {
            if (ex instanceof BenchmarkException) {
                line.getErr().println("benchmark: " + ex.getMessage());
                line.getErr().flush();
                return 1;
            }
            throw ex;
        });
        return cl;
    }
}
