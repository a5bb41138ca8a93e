package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.Command;
import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.Eventually;
import io.etcdj.harness.FreePorts;
import io.etcdj.harness.LoggedProcess;
import io.etcdj.harness.RunningCommand;
import io.etcdj.harness.TempDirs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * SIGTERM and SIGINT end etcd, etcd gateway and etcd grpc-proxy by that signal (etcd re-raises it
 * after its orderly shutdown), not with an exit status: ours and etcd 3.4 are run under a parent
 * that sees how the process ended. Java's Process reports a death by signal n as exit 128+n, the
 * same as an exit with that status, so the parent is a few lines of perl (perl-base is essential on
 * Debian): it forks, execs the command, sends the signal the test names and prints the wait status.
 */
class SignalExitIT {

    private static final String PARENT = String.join("\n",
            "$| = 1;",
            "my $pid = fork();",
            // DISPOSITION: the signals' disposition the command inherits, across exec: DEFAULT as from a
            // terminal, IGNORE as a shell script's background job (`etcd &`) has SIGINT
            "if ($pid == 0) { $SIG{INT} = 'DISPOSITION'; $SIG{TERM} = 'DISPOSITION'; exec @ARGV or exit 127; }",
            "print \"pid $pid\\n\";",
            "my $sig = <STDIN>; chomp $sig;",
            "kill $sig, $pid;",
            "waitpid($pid, 0);",
            "print(($? & 127) ? 'signal ' . ($? & 127) . \"\\n\" : 'exit ' . ($? >> 8) . \"\\n\");");

    @ParameterizedTest(name = "{0} {1} {2}, inherited {3}")
    @CsvSource({
        "OURS, member, TERM, DEFAULT", "REAL_ETCD, member, TERM, DEFAULT", "OURS, member, INT, DEFAULT",
        "REAL_ETCD, member, INT, DEFAULT", "OURS, gateway, TERM, DEFAULT", "REAL_ETCD, gateway, TERM, DEFAULT",
        "OURS, grpc-proxy, INT, DEFAULT", "REAL_ETCD, grpc-proxy, INT, DEFAULT",
        // Go's signal.Notify takes a signal the process inherited as ignored: so must ours
        "OURS, member, INT, IGNORE", "REAL_ETCD, member, INT, IGNORE",
        "OURS, grpc-proxy, TERM, IGNORE", "REAL_ETCD, grpc-proxy, TERM, IGNORE",
    })
    void diesByTheSignal(EtcdProcess.Binary binary, String kind, String signal, String inherited) throws Exception {
        Path home = TempDirs.create("etcd-signal-it-");
        int port = FreePorts.pick();
        List<String> cmd = new ArrayList<>(List.of("perl", "-e", PARENT.replace("DISPOSITION", inherited), "--"));
        cmd.addAll(binary.command().prefix(List.of()));
        if (kind.equals("member")) {
            int peer = FreePorts.pick();
            cmd.addAll(List.of("--logger=zap", "--data-dir=" + home.resolve("data"),
                    "--listen-client-urls=http://127.0.0.1:" + port, "--advertise-client-urls=http://127.0.0.1:" + port,
                    "--listen-peer-urls=http://127.0.0.1:" + peer, "--initial-advertise-peer-urls=http://127.0.0.1:" + peer,
                    "--initial-cluster=default=http://127.0.0.1:" + peer));
        } else {
            // the flag before "start": cobra's placement, which ours follows too
            cmd.addAll(List.of(kind, "--endpoints=127.0.0.1:" + FreePorts.pick(), "start",
                    "--listen-addr=127.0.0.1:" + port));
        }
        long child = -1;
        try (RunningCommand parent = Command.of(cmd).dir(home).withoutEnv("ETCD").start()) {
            String pidLine = parent.nextLines(1, Duration.ofSeconds(30)).get(0).strip();
            assertTrue(pidLine.startsWith("pid "), pidLine);
            child = Long.parseLong(pidLine.substring(4));
            awaitListening(port, child, parent);
            if (kind.equals("member")) {
                // etcd takes the signals only once the member is ready (published to the cluster):
                // before that the signal kills it without the orderly shutdown and its log line
                awaitLogLine(parent, "published local member to cluster through raft", child);
                Thread.sleep(1000);
            }
            parent.type(signal + "\n");
            parent.finish(Duration.ofSeconds(60));
            int number = signal.equals("TERM") ? 15 : 2;
            assertEquals("signal " + number + "\n", parent.nextLines(1, Duration.ofSeconds(5)).get(0), tail(parent));
            if (kind.equals("member")) {
                // etcd's log line of the orderly shutdown, before the signal ends it (both log it with --logger=zap)
                String name = signal.equals("TERM") ? "terminated" : "interrupt";
                String log = parent.stderr();
                assertTrue(log.contains("\"msg\":\"received signal; shutting down\",\"signal\":\"" + name + "\""), log);
            }
        } finally {
            if (child > 0) {
                ProcessHandle.of(child).ifPresent(ProcessHandle::destroyForcibly);
            }
            TempDirs.delete(home);
        }
    }

    /** The last lines the member (or proxy) logged: its stderr, which the parent passes on. */
    private static String tail(RunningCommand parent) {
        List<String> lines = parent.stderr().lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    }

    private static void awaitLogLine(RunningCommand parent, String line, long child) throws InterruptedException {
        Eventually.until("\"" + line + "\" in the log", Duration.ofSeconds(60), Duration.ofMillis(100), () -> {
            if (parent.stderr().contains(line)) {
                return true;
            }
            if (ProcessHandle.of(child).map(h -> !h.isAlive()).orElse(true)) {
                throw new Eventually.GiveUp("the process exited:\n" + tail(parent));
            }
            return false;
        });
    }

    private static void awaitListening(int port, long child, RunningCommand parent) throws InterruptedException {
        Eventually.until("listening on " + port, Duration.ofSeconds(60), Duration.ofMillis(100), () -> {
            if (LoggedProcess.accepts(port)) {
                return true;
            }
            if (ProcessHandle.of(child).map(h -> !h.isAlive()).orElse(true)) {
                throw new Eventually.GiveUp("the process exited:\n" + tail(parent));
            }
            return false;
        });
    }
}
