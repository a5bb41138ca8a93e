package io.etcdj.launcher.spec;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A whole cluster as the cluster file describes it.
 *
 * @param source where the description came from (a path, or the built-in default)
 * @param token the {@code --initial-cluster-token}
 * @param tls whether the launcher generates certificates and uses https everywhere
 * @param etcdBinary the {@code etcd:} setting, if any
 * @param baseDir the directory for data dirs, logs, certificates and the launcher's state
 * @param faults whether peer links run through the fault-injecting proxy
 * @param flags etcd flags every member gets
 * @param env environment variables every member gets
 * @param members the members, in file order
 */
public record ClusterSpec(
        String source,
        String token,
        boolean tls,
        Optional<String> etcdBinary,
        Path baseDir,
        FaultMode faults,
        List<String> flags,
        Map<String, String> env,
        List<MemberSpec> members) {

    public static final String DEFAULT_TOKEN = "etcd-cluster-1";
    public static final Path DEFAULT_BASE_DIR = Path.of("local-cluster.etcd");

    public ClusterSpec {
        flags = List.copyOf(flags);
        env = Map.copyOf(env);
        members = List.copyOf(members);
    }

    public Optional<MemberSpec> member(String nameOrProcess) {
        return members.stream().filter(m -> m.isCalled(nameOrProcess)).findFirst();
    }

    public ClusterSpec withMembers(List<MemberSpec> newMembers) {
        return new ClusterSpec(source, token, tls, etcdBinary, baseDir, faults, flags, env, newMembers);
    }

    /** Flags placed before the file's own, so that the file's win where both set one. */
    public ClusterSpec withDefaultFlags(List<String> defaults) {
        List<String> all = new ArrayList<>(defaults);
        all.addAll(flags);
        return new ClusterSpec(source, token, tls, etcdBinary, baseDir, faults, all, env, members);
    }

    public ClusterSpec withBaseDir(Path dir) {
        return new ClusterSpec(source, token, tls, etcdBinary, dir, faults, flags, env, members);
    }
}
