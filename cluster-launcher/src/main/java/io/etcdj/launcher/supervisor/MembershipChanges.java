package io.etcdj.launcher.supervisor;

import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.api.etcdserverpb.MemberAddResponse;
import io.etcdj.cli.ExitCodes;
import io.etcdj.launcher.LauncherException;
import io.etcdj.launcher.client.MemberCallException;
import io.etcdj.launcher.client.MemberClient;
import io.etcdj.launcher.process.CommandLineBuilder.Peer;
import io.etcdj.launcher.process.MemberProcess;
import io.etcdj.launcher.process.PortProbe;
import io.etcdj.launcher.spec.FaultMode;
import io.etcdj.launcher.spec.MemberSpec;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Membership changes the etcd way: {@code add-member} asks the cluster first (MemberAdd) and then
 * starts the new process with {@code --initial-cluster-state existing} and the initial cluster
 * built from the returned members; {@code remove-member} removes first and then stops the
 * process; {@code promote} turns a learner into a voter.
 */
final class MembershipChanges {
    private static final Duration RPC_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration UNHEALTHY_RETRY = Duration.ofSeconds(30);

    private final Supervisor supervisor;

    MembershipChanges(Supervisor supervisor) {
        this.supervisor = supervisor;
    }

    void add(String name, boolean learner, Optional<URI> clientUrl, Optional<URI> peerUrl,
            ControlServer.Reply reply) {
        if (supervisor.members().stream().anyMatch(mp -> mp.spec().isCalled(name))) {
            throw new LauncherException("member \"" + name + "\" already exists");
        }
        String scheme = supervisor.clientTls().isPresent() ? "https" : "http";
        URI client = clientUrl.orElseGet(() -> nextUrl(scheme, u -> u.spec().clientUrl(), Set.of()));
        URI peer = peerUrl.orElseGet(() -> nextUrl(scheme, u -> u.spec().peerUrl(), Set.of(client.getPort())));
        URI listenPeer = supervisor.spec().faults() == FaultMode.PROXY ? shift(peer) : peer;
        MemberSpec spec = new MemberSpec(name, name, List.of(client), List.of(client), List.of(listenPeer),
                List.of(peer), Optional.empty(), List.of(), Map.of(), "existing", 0);
        PortProbe.requireFree(supervisor.claims(List.of(spec)));
        deleteStaleDataDir(spec);

        MemberAddResponse added = retryWhileUnhealthy(() -> withAnyMember(c -> c.memberAdd(peer.toString(), learner)));
        reply.out(String.format("Member %16x added to cluster %16x", added.getMember().getID(),
                added.getHeader().getClusterId()));
        List<Peer> initialCluster = new ArrayList<>();
        for (Member m : added.getMembersList()) {
            String memberName = m.getID() == added.getMember().getID() ? name : m.getName();
            initialCluster.add(new Peer(memberName, m.getPeerURLsList()));
        }
        MemberProcess mp = supervisor.newProcess(spec, initialCluster);
        supervisor.addMember(mp);
        supervisor.startProxy(spec);
        mp.start();
        reply.out("started " + name + " (pid " + mp.pid().map(String::valueOf).orElse("?") + ") with "
                + "--initial-cluster-state existing, client URL " + client + ", peer URL " + peer
                + (learner ? " as a learner" : ""));
        supervisor.save();
        List<MemberProcess> late = supervisor.awaitReady(List.of(mp), false);
        if (!late.isEmpty()) {
            reply.out(name + " is running but not serving clients yet");
        }
    }

    void promote(MemberProcess mp, ControlServer.Reply reply) {
        long id = idOf(mp);
        // ask a voter: the learner itself does not serve the Cluster API
        List<MemberProcess> others = supervisor.members().stream().filter(o -> o != mp).toList();
        retryWhileUnhealthy(() -> withMembers(others, c -> c.memberPromote(id)));
        reply.out(String.format("Member %16x promoted in cluster", id));
    }

    void remove(MemberProcess mp, ControlServer.Reply reply) {
        long id = idOf(mp);
        List<MemberProcess> others = supervisor.members().stream().filter(o -> o != mp).toList();
        retryWhileUnhealthy(() -> withMembers(others, c -> c.memberRemove(id)));
        reply.out(String.format("Member %16x removed from cluster", id));
        mp.stop(Duration.ofSeconds(10));
        supervisor.dropMember(mp);
        deleteStaleDataDir(mp.spec());
        reply.out("stopped " + mp.spec().process() + " and deleted its data dir");
    }

    /**
     * etcd refuses membership changes for a few seconds after a member (re)joins ("etcdserver:
     * unhealthy cluster"); a launcher that just restarted a member should not fail on that.
     */
    private static <T> T retryWhileUnhealthy(Supplier<T> change) {
        long deadline = System.nanoTime() + UNHEALTHY_RETRY.toNanos();
        while (true) {
            try {
                return change.get();
            } catch (MemberCallException e) {
                if (!e.getMessage().contains("unhealthy cluster") || System.nanoTime() > deadline) {
                    throw e;
                }
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LauncherException("interrupted");
            }
        }
    }

    private long idOf(MemberProcess mp) {
        List<Member> list = withAnyMember(MemberClient::memberList);
        String peer = mp.spec().peerUrl().toString();
        return list.stream()
                .filter(m -> m.getName().equals(mp.spec().name()) || m.getPeerURLsList().contains(peer))
                .findFirst()
                .map(Member::getID)
                .orElseThrow(() -> new LauncherException("member \"" + mp.spec().name()
                        + "\" is not in the cluster's member list"));
    }

    private <T> T withAnyMember(Function<MemberClient, T> call) {
        return withMembers(supervisor.members(), call);
    }

    /** Tries the running members in turn; a refusal (not an unreachable member) ends the search. */
    private <T> T withMembers(List<MemberProcess> candidates, Function<MemberClient, T> call) {
        List<String> unreachable = new ArrayList<>();
        for (MemberProcess mp : candidates) {
            if (mp.state() != MemberProcess.State.RUNNING) {
                continue;
            }
            try (MemberClient c = supervisor.clientFor(mp, RPC_TIMEOUT)) {
                return call.apply(c);
            } catch (MemberCallException e) {
                if (!e.unreachable()) {
                    throw e;
                }
                unreachable.add(e.getMessage());
            }
        }
        throw new LauncherException(unreachable.isEmpty() ? "no member is running"
                : "no member could be reached:\n  " + String.join("\n  ", unreachable), ExitCodes.ERROR);
    }

    /**
     * Picks a URL for a new member following the cluster's pattern (etcd's Procfile goes
     * 2379, 22379, 32379, so the next is 42379), or any free port if that one is taken.
     */
    private URI nextUrl(String scheme, Function<MemberProcess, URI> existing, Set<Integer> taken) {
        Set<Integer> used = new HashSet<>(taken);
        supervisor.members().forEach(mp -> Stream.of(mp.spec().listenClientUrls(), mp.spec().listenPeerUrls(),
                mp.spec().peerUrls()).flatMap(List::stream).forEach(u -> used.add(u.getPort())));
        int highest = supervisor.members().stream().map(existing).mapToInt(URI::getPort).max().orElse(2379);
        int candidate = highest + 10_000;
        boolean proxy = supervisor.spec().faults() == FaultMode.PROXY;
        if (candidate > 65_000 || used.contains(candidate) || (proxy && used.contains(candidate + 1))
                || !PortProbe.isFree("127.0.0.1", candidate)) {
            do {
                candidate = PortProbe.freePort();
            } while (used.contains(candidate) || (proxy && !PortProbe.isFree("127.0.0.1", candidate + 1)));
        }
        return URI.create(scheme + "://127.0.0.1:" + candidate);
    }

    private static URI shift(URI u) {
        return URI.create(u.getScheme() + "://" + u.getHost() + ":" + (u.getPort() + 1));
    }

    /** A removed member's data dir would make a re-added member of the same name start as the old one. */
    private void deleteStaleDataDir(MemberSpec spec) {
        Path dir = supervisor.clusterLayout().dataDir(spec);
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new LauncherException("cannot delete " + dir + ": " + e.getMessage());
        }
    }
}
