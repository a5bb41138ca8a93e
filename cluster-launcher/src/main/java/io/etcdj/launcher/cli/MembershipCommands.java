package io.etcdj.launcher.cli;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** Membership changes through the Cluster API, with the processes to match. */
final class MembershipCommands {
    private MembershipCommands() {}

    @Command(name = "add-member", mixinStandardHelpOptions = true,
            description = "Add a member the etcd way: MemberAdd first, then start it with --initial-cluster-state existing and the initial "
                    + "cluster the cluster returned. URLs default to the cluster's pattern (2379, 22379, 32379 -> 42379) or free ports.")
    static final class AddMember implements Callable<Integer> {
        @ParentCommand LauncherCommand root;
        @Mixin ClusterOptions cluster;
        @Parameters(paramLabel = "NAME") String name;
        @Option(names = "--learner", description = "Add as a learner (non-voting); promote it later.") boolean learner;
        @Option(names = "--client-url", paramLabel = "URL", description = "Client URL of the new member.") String clientUrl;
        @Option(names = "--peer-url", paramLabel = "URL", description = "Advertised peer URL of the new member.") String peerUrl;

        @Override
        public Integer call() {
            return Forwarding.send(root, cluster, "add-member", List.of(name, Boolean.toString(learner),
                    clientUrl == null ? "" : clientUrl, peerUrl == null ? "" : peerUrl));
        }
    }

    @Command(name = "promote", mixinStandardHelpOptions = true,
            description = "Promote a learner to a voting member (fails until the learner has caught up).")
    static final class Promote implements Callable<Integer> {
        @ParentCommand LauncherCommand root;
        @Mixin ClusterOptions cluster;
        @Parameters(paramLabel = "NAME") String name;

        @Override
        public Integer call() {
            return Forwarding.send(root, cluster, "promote", List.of(name));
        }
    }

    @Command(name = "remove-member", mixinStandardHelpOptions = true,
            description = "Remove a member (MemberRemove), then stop its process and delete its data dir.")
    static final class RemoveMember implements Callable<Integer> {
        @ParentCommand LauncherCommand root;
        @Mixin ClusterOptions cluster;
        @Parameters(paramLabel = "NAME") String name;

        @Override
        public Integer call() {
            return Forwarding.send(root, cluster, "remove-member", List.of(name));
        }
    }

    @Command(name = "move-leader", mixinStandardHelpOptions = true,
            description = "Transfer leadership to a member, as etcdctl move-leader does (Maintenance.MoveLeader on the leader).")
    static final class MoveLeader implements Callable<Integer> {
        @ParentCommand LauncherCommand root;
        @Mixin ClusterOptions cluster;
        @Parameters(paramLabel = "NAME") String name;

        @Override
        public Integer call() {
            return Forwarding.send(root, cluster, "move-leader", List.of(name));
        }
    }
}
