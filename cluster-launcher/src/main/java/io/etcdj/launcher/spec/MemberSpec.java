package io.etcdj.launcher.spec;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One member as the cluster file describes it.
 *
 * @param process the process name used on the launcher's command line (goreman's name)
 * @param name the member's etcd {@code --name}
 * @param listenClientUrls where the member accepts clients
 * @param clientUrls the client URLs it advertises
 * @param listenPeerUrls where the member accepts peers
 * @param peerUrls the peer URLs it advertises (the proxy's URL when faults are injected)
 * @param dataDir an explicit data dir, or empty for the launcher's layout
 * @param flags extra etcd flags, in order, appended after the cluster-wide ones
 * @param env extra environment variables for this member
 * @param initialClusterState "new" for founding members, "existing" for members added later
 * @param line the line of the cluster file the member is declared on
 */
public record MemberSpec(
        String process,
        String name,
        List<URI> listenClientUrls,
        List<URI> clientUrls,
        List<URI> listenPeerUrls,
        List<URI> peerUrls,
        Optional<Path> dataDir,
        List<String> flags,
        Map<String, String> env,
        String initialClusterState,
        int line) {

    public MemberSpec {
        listenClientUrls = List.copyOf(listenClientUrls);
        clientUrls = List.copyOf(clientUrls);
        listenPeerUrls = List.copyOf(listenPeerUrls);
        peerUrls = List.copyOf(peerUrls);
        flags = List.copyOf(flags);
        env = Map.copyOf(env);
    }

    /** The first advertised client URL: the one the launcher talks to. */
    public URI clientUrl() {
        return clientUrls.get(0);
    }

    /** The first advertised peer URL. */
    public URI peerUrl() {
        return peerUrls.get(0);
    }

    /** True when {@code nameOrProcess} names this member either way. */
    public boolean isCalled(String nameOrProcess) {
        return process.equals(nameOrProcess) || name.equals(nameOrProcess);
    }

    public MemberSpec withPeerUrls(List<URI> listen, List<URI> advertised) {
        return new MemberSpec(process, name, listenClientUrls, clientUrls, listen, advertised, dataDir,
                flags, env, initialClusterState, line);
    }

    public MemberSpec withInitialClusterState(String state) {
        return new MemberSpec(process, name, listenClientUrls, clientUrls, listenPeerUrls, peerUrls,
                dataDir, flags, env, state, line);
    }
}
