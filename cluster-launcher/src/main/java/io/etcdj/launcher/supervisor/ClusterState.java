package io.etcdj.launcher.supervisor;

import java.util.List;
import java.util.Optional;

/**
 * What the state file records about a cluster: enough for {@code status}, {@code env},
 * {@code logs} and {@code clean} to work without asking the supervisor, and for every other
 * command to find it.
 *
 * @param phase starting, running, stopping, stopped or failed
 * @param error why start-up failed, when phase is failed
 * @param supervisorPid the pid of the launcher process that wrote this state
 * @param controlPort its control port on 127.0.0.1 while it runs, else 0
 * @param secret the token control requests must carry
 * @param etcd the etcd binary in use and why it was chosen
 * @param faults "none" or "proxy"
 * @param tls the CA and client certificate files when the cluster uses TLS
 * @param removed members of the cluster file that remove-member took out of the cluster
 * @param dashboard the address of the dashboard the supervisor serves ({@code up --ui}), else ""
 * @param serving how many members were found serving clients while the cluster was brought up
 *     ({@code up --detach} draws its progress line from it; 0 in state files written before it existed)
 */
public record ClusterState(
        String phase,
        String error,
        long supervisorPid,
        int controlPort,
        String secret,
        String baseDir,
        String etcd,
        String faults,
        TlsState tls,
        List<MemberState> members,
        List<String> removed,
        String dashboard,
        int serving) {

    public static final String STARTING = "starting";
    public static final String RUNNING = "running";
    public static final String FAILED = "failed";
    /** Shutting down: no more control requests, members being stopped. */
    public static final String STOPPING = "stopping";
    public static final String STOPPED = "stopped";

    /** One member's entry. */
    public record MemberState(
            String process,
            String name,
            long pid,
            String state,
            List<String> clientUrls,
            List<String> peerUrls,
            List<String> listenPeerUrls,
            String dataDir,
            String logFile,
            boolean partitioned,
            int delayMillis,
            List<String> flags,
            String initialClusterState,
            List<String> initialCluster) {}

    /** Files etcdctl needs to reach a TLS cluster. */
    public record TlsState(String caCert, String clientCert, String clientKey) {}

    public Optional<MemberState> member(String nameOrProcess) {
        return members.stream()
                .filter(m -> m.process().equals(nameOrProcess) || m.name().equals(nameOrProcess))
                .findFirst();
    }

    /** True while the recorded supervisor process is alive and in charge. */
    public boolean supervisorAlive() {
        return (RUNNING.equals(phase) || STARTING.equals(phase) || STOPPING.equals(phase)) && supervisorPid > 0
                && ProcessHandle.of(supervisorPid).map(ProcessHandle::isAlive).orElse(false);
    }
}
