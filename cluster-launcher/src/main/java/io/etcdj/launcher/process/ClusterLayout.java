package io.etcdj.launcher.process;

import io.etcdj.launcher.spec.MemberSpec;
import java.nio.file.Path;

/** Where the launcher keeps each file of a cluster under its base dir. */
public record ClusterLayout(Path baseDir) {
    public Path dataDir(MemberSpec member) {
        return member.dataDir().map(baseDir::resolve).orElse(baseDir.resolve(member.name() + ".etcd"));
    }

    public Path logFile(MemberSpec member) {
        return baseDir.resolve(member.process() + ".log");
    }

    /** The launcher's record of the running cluster: pids, URLs, data dirs, control port. */
    public Path stateFile() {
        return baseDir.resolve("launcher-state.json");
    }

    /** Output of the background supervisor itself (not of the members). */
    public Path supervisorLog() {
        return baseDir.resolve("supervisor.log");
    }

    public Path certsDir() {
        return baseDir.resolve("certs");
    }
}
