package io.etcdj.launcher.cli;

import io.etcdj.cli.ExitCodes;
import io.etcdj.launcher.LauncherException;
import io.etcdj.launcher.process.ClusterLayout;
import io.etcdj.launcher.process.ConsoleLog;
import io.etcdj.launcher.spec.ClusterSpec;
import io.etcdj.launcher.spec.MemberSpec;
import io.etcdj.launcher.supervisor.ClusterState;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code logs}: the per-member log files under the base dir. One member's log is printed as is;
 * all members' logs get goreman-style name prefixes. {@code -f} keeps printing new lines until
 * the cluster stops or the command is interrupted.
 */
@Command(name = "logs", mixinStandardHelpOptions = true,
        description = "Print member logs (all members, or NAME); -f follows them.")
final class LogsCommand implements Callable<Integer> {
    @ParentCommand LauncherCommand root;
    /** {@code -f} means follow here, as in tail, so the cluster file is {@code --file} only. */
    @Option(names = "--file", paramLabel = "FILE",
            description = "Cluster file: launcher YAML or a plain Procfile (default: the built-in 3-member cluster).")
    Path file;

    @Option(names = "--base-dir", paramLabel = "DIR", description = "Directory for data dirs, logs and launcher state.")
    Path baseDir;

    private final ClusterOptions cluster = new ClusterOptions();

    @Parameters(paramLabel = "NAME", arity = "0..1") String name;

    @Option(names = {"-f", "--follow"}, description = "Keep printing new lines as members write them.")
    boolean follow;

    @Option(names = {"-n", "--tail"}, paramLabel = "LINES", defaultValue = "-1",
            description = "Print only the last LINES lines of each log first (default: all).")
    int tail;

    @Option(names = "--no-color", description = "No colours in the name prefixes.")
    boolean noColour;

    @Override
    public Integer call() throws Exception {
        LauncherContext ctx = root.context();
        cluster.file = file != null ? file : root.file;
        cluster.baseDir = baseDir != null ? baseDir : root.baseDir;
        Map<String, Path> logs = logFiles(ctx);
        if (name != null) {
            String key = logs.keySet().stream().filter(k -> k.equals(name)).findFirst()
                    .orElseThrow(() -> new LauncherException("unknown member \"" + name + "\" (members: "
                            + String.join(", ", logs.keySet()) + ")"));
            logs.keySet().retainAll(List.of(key));
        }
        ConsoleLog console = new ConsoleLog(ctx.out(), !noColour && ConsoleLog.colourByDefault(ctx.env()),
                new ArrayList<>(logs.keySet()));
        boolean prefix = name == null;
        Map<String, Long> offsets = new LinkedHashMap<>();
        for (Map.Entry<String, Path> e : logs.entrySet()) {
            List<String> lines = Files.exists(e.getValue()) ? Files.readAllLines(e.getValue(), StandardCharsets.UTF_8) : List.of();
            int from = tail >= 0 ? Math.max(0, lines.size() - tail) : 0;
            for (String line : lines.subList(from, lines.size())) {
                emit(ctx, console, prefix, e.getKey(), line);
            }
            offsets.put(e.getKey(), Files.exists(e.getValue()) ? Files.size(e.getValue()) : 0L);
        }
        if (follow) {
            followLogs(ctx, console, prefix, logs, offsets);
        }
        return ExitCodes.SUCCESS;
    }

    private void followLogs(LauncherContext ctx, ConsoleLog console, boolean prefix, Map<String, Path> logs,
            Map<String, Long> offsets) throws IOException, InterruptedException {
        boolean running = true;
        while (running) {
            // one more pass after the cluster stopped, for the lines written while it was stopping
            running = cluster.state(ctx).map(ClusterState::supervisorAlive).orElse(false);
            for (Map.Entry<String, Path> e : logs.entrySet()) {
                Path file = e.getValue();
                if (!Files.exists(file)) {
                    continue;
                }
                long offset = offsets.get(e.getKey());
                if (Files.size(file) < offset) {
                    offset = 0; // the file was recreated
                }
                try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
                    raf.seek(offset);
                    byte[] rest = new byte[(int) (raf.length() - offset)];
                    raf.readFully(rest);
                    String text = new String(rest, StandardCharsets.UTF_8);
                    int complete = text.lastIndexOf('\n') + 1; // keep a half-written line for the next round
                    text.substring(0, complete).lines().forEach(l -> emit(ctx, console, prefix, e.getKey(), l));
                    offsets.put(e.getKey(), offset + text.substring(0, complete).getBytes(StandardCharsets.UTF_8).length);
                }
            }
            ctx.out().flush();
            if (running) {
                Thread.sleep(200);
            }
        }
    }

    private static void emit(LauncherContext ctx, ConsoleLog console, boolean prefix, String process, String line) {
        if (prefix) {
            console.line(process, line);
        } else {
            ctx.out().println(line);
        }
    }

    /** Log files by process name: from the running cluster's state, else from the cluster file. */
    private Map<String, Path> logFiles(LauncherContext ctx) {
        Map<String, Path> logs = new LinkedHashMap<>();
        Optional<ClusterState> state = cluster.state(ctx);
        if (state.isPresent() && !state.get().members().isEmpty()) {
            state.get().members().forEach(m -> logs.put(m.process(), Path.of(m.logFile())));
        } else {
            ClusterSpec spec = cluster.load(ctx);
            ClusterLayout layout = new ClusterLayout(spec.baseDir());
            for (MemberSpec m : spec.members()) {
                logs.put(m.process(), layout.logFile(m));
            }
        }
        return logs;
    }
}
