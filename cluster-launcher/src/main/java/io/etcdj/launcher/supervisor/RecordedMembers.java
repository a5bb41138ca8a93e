package io.etcdj.launcher.supervisor;

import io.etcdj.launcher.process.CommandLineBuilder.Peer;
import io.etcdj.launcher.spec.MemberSpec;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Rebuilds members that {@code add-member} created from their state-file entries. */
final class RecordedMembers {
    private RecordedMembers() {}

    static MemberSpec spec(ClusterState.MemberState m) {
        List<URI> client = m.clientUrls().stream().map(URI::create).toList();
        return new MemberSpec(m.process(), m.name(), client, client,
                m.listenPeerUrls().stream().map(URI::create).toList(),
                m.peerUrls().stream().map(URI::create).toList(),
                Optional.of(Path.of(m.dataDir())), m.flags(), Map.of(), m.initialClusterState(), 0);
    }

    /** "name=url" entries back into peers, keeping order and grouping URLs by name. */
    static List<Peer> initialCluster(ClusterState.MemberState m) {
        Map<String, List<String>> byName = new LinkedHashMap<>();
        for (String entry : m.initialCluster()) {
            int eq = entry.indexOf('=');
            byName.computeIfAbsent(entry.substring(0, eq), k -> new ArrayList<>()).add(entry.substring(eq + 1));
        }
        List<Peer> peers = new ArrayList<>();
        byName.forEach((name, urls) -> peers.add(new Peer(name, urls)));
        return peers;
    }
}
