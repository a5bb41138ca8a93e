package io.etcdj.server.etcdserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.FreePorts;
import io.etcdj.raftpb.ConfChange;
import io.etcdj.raftpb.ConfChangeType;
import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.EntryType;
import io.etcdj.raftpb.HardState;
import io.etcdj.server.clock.Clock;
import io.etcdj.server.config.ConfigException;
import io.etcdj.server.config.ServerConfig;
import io.etcdj.server.wal.Wal;
import io.etcdj.server.wal.WalOptions;
import io.etcdj.server.wal.WalSnapshot;
import io.etcdj.serverpb.WalMetadata;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opening a data directory: a new member bootstraps from --initial-cluster, a member with a WAL
 * restarts as itself whatever the flags say now, a joining member needs a peer to tell it the
 * cluster, and --force-new-cluster leaves this member alone in its cluster, durably.
 */
class StorageTest {
    @TempDir
    Path home;
    private final MemberContext context = MemberContext.fresh();
    private final int[] ports = {FreePorts.pick(), FreePorts.pick(), FreePorts.pick()};

    private Map<String, String> flags(String name) {
        Map<String, String> f = new HashMap<>();
        f.put("name", name);
        f.put("data-dir", home.resolve(name).toString());
        String mine = peer(name);
        f.put("initial-advertise-peer-urls", mine);
        f.put("listen-peer-urls", mine);
        f.put("initial-cluster", "m0=" + peer("m0") + ",m1=" + peer("m1") + ",m2=" + peer("m2"));
        f.put("initial-cluster-token", "storage-test");
        return f;
    }

    private String peer(String name) {
        return "http://127.0.0.1:" + ports[name.charAt(1) - '0'];
    }

    private Storage.Opened open(Map<String, String> flags) throws Exception {
        return Storage.open(ServerConfig.from(flags), Clock.SYSTEM, new Random(1), context.metrics(), context.logs());
    }

    private static void close(Storage.Opened o) throws IOException {
        o.wal().close();
        o.stateMachines().close();
        o.lock().close();
    }

    @Test
    void aNewMemberBootstrapsTheWholeInitialCluster() throws Exception {
        Storage.Opened o = open(flags("m0"));
        try {
            assertTrue(o.fresh());
            List<Long> added = confChanges(o.node().ready().entries(), ConfChangeType.ConfChangeAddNode);
            assertEquals(3, added.size(), "one AddNode per --initial-cluster member, as etcd's bootstrap entries");
            assertTrue(added.contains(o.memberId()));
            assertTrue(Wal.exists(ServerConfig.from(flags("m0")).walPath()), "the WAL marks the data dir as used");
        } finally {
            close(o);
        }
    }

    @Test
    void aNameMissingFromTheInitialClusterIsRefusedWithTheClusteringGuidesText() {
        Map<String, String> f = flags("m0");
        f.put("initial-cluster", "m1=" + peer("m1"));
        ConfigException e = assertThrows(ConfigException.class, () -> open(f));
        // etcd's clustering guide shows this text (docs/decisions.md, "Bootstrap error texts follow the seed")
        assertEquals("m0 not listed in the initial cluster config", e.getMessage());
    }

    @Test
    void aRestartKeepsTheMembersIdentityWhateverInitialClusterSaysNow() throws Exception {
        Storage.Opened first = open(flags("m0"));
        long id = first.memberId();
        close(first);
        Map<String, String> changed = flags("m0");
        changed.put("initial-cluster", "m0=" + peer("m0"));
        changed.put("initial-cluster-token", "another-token");
        Storage.Opened again = open(changed);
        try {
            assertFalse(again.fresh(), "a data dir with a WAL is restarted, not bootstrapped");
            assertEquals(id, again.memberId());
        } finally {
            close(again);
        }
    }

    @Test
    void joiningWithoutAnyPeerAnsweringFailsWithEtcdsText() throws Exception {
        Map<String, String> f = flags("m0");
        f.put("initial-cluster-state", "existing");
        ConfigException e = assertThrows(ConfigException.class, () -> open(f));
        assertEquals("cannot fetch cluster info from peer urls: could not retrieve cluster information from the given URLs",
                e.getMessage());
        assertFalse(Files.exists(ServerConfig.from(flags("m0")).walPath()), "a failed join leaves no WAL behind");
    }

    @Test
    void forceNewClusterKeepsOnlyThisMemberAndSurvivesARestartWithoutTheFlag() throws Exception {
        long self = 0xa;
        Path walDir = ServerConfig.from(flags("m0")).walPath();
        Files.createDirectories(walDir.getParent());
        try (Wal wal = Wal.create(walDir, WalMetadata.newBuilder().setMemberId(self).setClusterId(0x99).build()
                .toByteArray(), WalOptions.DEFAULT)) {
            wal.save(HardState.newBuilder().setTerm(2).setVote(0xb).setCommit(4).build(), List.of(
                    conf(1, ConfChangeType.ConfChangeAddNode, 0xa), conf(2, ConfChangeType.ConfChangeAddNode, 0xb),
                    conf(3, ConfChangeType.ConfChangeAddNode, 0xc), data(4), data(5)));
        }
        Map<String, String> forced = flags("m0");
        forced.put("force-new-cluster", "true");
        Storage.Opened o = open(forced);
        try {
            assertEquals(self, o.memberId());
            List<Entry> log = o.storage().entries(1, o.storage().lastIndex() + 1, Long.MAX_VALUE);
            assertEquals(List.of(0xbL, 0xcL), confChanges(log, ConfChangeType.ConfChangeRemoveNode));
            assertTrue(log.stream().noneMatch(e -> e.getIndex() == 5 && e.getType() == EntryType.EntryNormal),
                    "the uncommitted entry 5 is dropped");
        } finally {
            close(o);
        }
        try (Wal wal = Wal.open(walDir, WalSnapshot.NONE, WalOptions.DEFAULT)) {
            var onDisk = wal.readAll();
            assertEquals(List.of(0xbL, 0xcL), confChanges(onDisk.entries(), ConfChangeType.ConfChangeRemoveNode),
                    "the removals are in the WAL: a restart without the flag stays a one-member cluster");
            assertEquals(onDisk.entries().get(onDisk.entries().size() - 1).getIndex(), onDisk.hardState().getCommit(),
                    "and committed");
        }
    }

    private static List<Long> confChanges(List<Entry> entries, ConfChangeType type) throws Exception {
        List<Long> ids = new ArrayList<>();
        for (Entry e : entries) {
            if (e.getType() == EntryType.EntryConfChange) {
                ConfChange cc = ConfChange.parseFrom(e.getData());
                if (cc.getType() == type) {
                    ids.add(cc.getNodeId());
                }
            }
        }
        return ids;
    }

    private static Entry conf(long index, ConfChangeType type, long node) {
        return Entry.newBuilder().setIndex(index).setTerm(1).setType(EntryType.EntryConfChange)
                .setData(ConfChange.newBuilder().setType(type).setNodeId(node).build().toByteString()).build();
    }

    private static Entry data(long index) {
        return Entry.newBuilder().setIndex(index).setTerm(2).setType(EntryType.EntryNormal).build();
    }
}
