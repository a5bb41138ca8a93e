package io.etcdj.benchmark;

import io.etcdj.cli.CliException;
import io.etcdj.cli.ExitCodes;
import io.etcdj.cli.ToolCommandLine;
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

    /**
     * The configured command line; tests pass their own writers. Bad input or an unusable set-up
     * ({@link BenchmarkException}) reads {@code benchmark: <message>}, exit 1.
     */
    static ToolCommandLine commandLine(PrintWriter out, PrintWriter err) {
        return ToolCommandLine.of(new Main()).streams(out, err).errorPrefix("benchmark: ")
                .failures(e -> e instanceof BenchmarkException b
                        ? new CliException(ExitCodes.ERROR, b.getMessage(), b) : null)
                .build();
    }
}
