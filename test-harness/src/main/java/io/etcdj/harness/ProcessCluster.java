package io.etcdj.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * A multi-member cluster of real processes (ours or etcd 3.4) on free loopback ports, started
 * the way an operator starts one: every member with the same --initial-cluster, launched together.
 * Members can be killed, restarted and added (two-phase, via the caller's MemberAdd). Closing it
 * stops every process and deletes every data dir.
 */
public final class ProcessCluster implements AutoCloseable {
    /** Timings short enough for tests on a loaded two-core machine, long enough to stay stable. */
    public static final List<String> FAST_RAFT = List.of("--heartbeat-interval=50", "--election-timeout=750");

    private final ServerCommand binary;
    private final List<String> flags;
    private final List<EtcdProcess> members = new ArrayList<>();

    private ProcessCluster(ServerCommand binary, List<String> flags) {
        this.binary = binary;
        this.flags = flags;
    }

    public static ProcessCluster start(EtcdProcess.Binary binary, int size, String... extraFlags) throws Exception {
        return start(binary, size, List.of(), extraFlags);
    }

    /** As {@link #start(EtcdProcess.Binary, int, String...)}, our members running with {@code jvmOptions}. */
    public static ProcessCluster start(EtcdProcess.Binary binary, int size, List<String> jvmOptions, String... extraFlags)
            throws Exception {
        return start(binary, size, m -> m.jvmOptions(jvmOptions), ms -> { }, extraFlags);
    }

    /**
     * As above, calling {@code beforeLaunch} with the members (ports chosen, not started), e.g. to
     * publish their ports in a test DNS server.
     */
    public static ProcessCluster start(EtcdProcess.Binary binary, int size, List<String> jvmOptions,
            Consumer<List<EtcdProcess>> beforeLaunch, String... extraFlags) throws Exception {
        return start(binary, size, m -> m.jvmOptions(jvmOptions), beforeLaunch, extraFlags);
    }

    /** As {@link #start(EtcdProcess.Binary, int, String...)}, each member set up by {@code setup} before it launches. */
    public static ProcessCluster start(EtcdProcess.Binary binary, int size, Consumer<EtcdProcess> setup,
            String... extraFlags) throws Exception {
        return start(binary, size, setup, ms -> { }, extraFlags);
    }

    private static ProcessCluster start(EtcdProcess.Binary binary, int size,
            Consumer<EtcdProcess> setup,
            Consumer<List<EtcdProcess>> beforeLaunch, String... extraFlags) throws Exception {
        return start(binary.command(), size, setup, beforeLaunch, extraFlags);
    }

    /**
     * Starts {@code size} members of {@code binary} named m1, m2..., each set up by {@code setup}, then
     * handed together to {@code beforeLaunch}, then launched together.
     */
    public static ProcessCluster start(ServerCommand binary, int size,
            Consumer<EtcdProcess> setup,
            Consumer<List<EtcdProcess>> beforeLaunch, String... extraFlags) throws Exception {
        List<String> flags = new ArrayList<>(FAST_RAFT);
        flags.add("--initial-cluster-token=it-cluster");
        flags.addAll(List.of(extraFlags));
        ProcessCluster c = new ProcessCluster(binary, flags);
        try {
            for (int i = 1; i <= size; i++) {
                EtcdProcess m = EtcdProcess.clusterMember(binary, "m" + i, flags);
                setup.accept(m);
                c.members.add(m);
            }
            beforeLaunch.accept(List.copyOf(c.members));
            String initial = c.initialCluster(c.members);
            for (EtcdProcess m : c.members) {
                m.joinAs(initial, "new");
                m.launch();
            }
            for (EtcdProcess m : c.members) {
                m.awaitStarted();
            }
            return c;
        } catch (Exception | Error e) {
            c.close();
            throw e;
        }
    }

    private String initialCluster(List<EtcdProcess> ms) {
        return ms.stream().map(m -> m.name() + "=" + m.peerUrl()).collect(Collectors.joining(","));
    }

    public EtcdProcess member(int i) {
        return members.get(i);
    }

    public List<EtcdProcess> members() {
        return List.copyOf(members);
    }

    /** All client endpoints, comma separated, as etcdctl --endpoints takes them. */
    public String endpoints() {
        return members.stream().filter(EtcdProcess::isAlive).map(EtcdProcess::endpoint).collect(Collectors.joining(","));
    }

    /** A new member object for a two-phase add: not started; its peer URL goes to MemberAdd first. */
    public EtcdProcess newMember(String name) {
        EtcdProcess m = EtcdProcess.clusterMember(binary, name, flags);
        members.add(m);
        return m;
    }

    /** Starts a member added with MemberAdd, with --initial-cluster-state existing. */
    public void startJoining(EtcdProcess m, String initialCluster) throws Exception {
        m.joinAs(initialCluster, "existing");
        m.launch();
        m.awaitStarted();
    }

    @Override
    public void close() {
        for (EtcdProcess m : members) {
            m.close();
        }
    }
}
