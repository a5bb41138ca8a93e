package io.etcdj.launcher.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** Faults on peer links; they need {@code faults: proxy} in the cluster file. */
final class FaultCommands {
    private FaultCommands() {}

    @Command(name = "partition", mixinStandardHelpOptions = true,
            description = "Cut a member's peer traffic both ways (faults: proxy). Clients still reach it.")
    static final class Partition implements Callable<Integer> {
        @ParentCommand LauncherCommand root;
        @Mixin ClusterOptions cluster;
        @Parameters(paramLabel = "NAME") String name;

        @Override
        public Integer call() {
            return Forwarding.send(root, cluster, "partition", List.of(name));
        }
    }

    @Command(name = "delay", mixinStandardHelpOptions = true,
            description = "Delay a member's peer traffic both ways by MS milliseconds (faults: proxy); 0 removes it.")
    static final class Delay implements Callable<Integer> {
        @ParentCommand LauncherCommand root;
        @Mixin ClusterOptions cluster;
        @Parameters(index = "0", paramLabel = "NAME") String name;
        @Parameters(index = "1", paramLabel = "MS") int millis;

        @Override
        public Integer call() {
            if (millis < 0) {
                throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this), "MS must not be negative");
            }
            return Forwarding.send(root, cluster, "delay", List.of(name, Integer.toString(millis)));
        }
    }

    @Command(name = "heal", mixinStandardHelpOptions = true,
            description = "Remove every partition and delay, or with NAMEs only those members' faults.")
    static final class Heal implements Callable<Integer> {
        @ParentCommand LauncherCommand root;
        @Mixin ClusterOptions cluster;
        @Parameters(paramLabel = "NAME", arity = "0..*", description = "Members to heal (default: all).")
        List<String> names = new ArrayList<>();

        @Override
        public Integer call() {
            return Forwarding.send(root, cluster, "heal", names);
        }
    }
}
