package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.EtcdProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Authentication and RBAC as the seed's RBAC guide and etcd's auth e2e tests drive them, with the
 * real etcdctl 3.4, step for step against the real etcd 3.4 and against ours: enabling auth
 * (refused without root, the root role made by etcdctl), users and roles with their errors,
 * permissions on keys, prefixes and open ranges, what a user may and may not read, write, delete,
 * watch, compact and revoke, root-only management and maintenance (with the auth package's raw
 * texts), password changes and no-password users, disabling auth. Every line a user sees must be
 * the same.
 */
class AuthDifferentialIT {
    private static final Pattern LEASE = Pattern.compile("lease ([0-9a-f]+) granted");

    @Test
    void rbacScenarioMatchesEtcd() throws Exception {
        List<String> real;
        try (EtcdProcess m = EtcdProcess.realEtcd()) {
            m.start();
            real = scenario(m);
        }
        List<String> ours;
        try (EtcdProcess m = EtcdProcess.ours()) {
            m.start();
            ours = scenario(m);
        }
        System.out.println("auth scenario, etcd 3.4:\n" + String.join("\n", real));
        assertTrue(real.size() > 60, "the scenario ran to its end on etcd 3.4");
        assertEquals(String.join("\n", real), String.join("\n", ours));
    }

    private static final class Transcript {
        final Etcdctl ctl;
        final List<String> seen = new ArrayList<>();

        Transcript(Etcdctl ctl) {
            this.ctl = ctl;
        }

        Etcdctl.Result run(String... args) {
            return runWithInput(null, args);
        }

        Etcdctl.Result runWithInput(String input, String... args) {
            Etcdctl.Result r = ctl.runWithInput(input, args);
            String err = lastLine(r.stderr()).replaceAll("127\\.0\\.0\\.1:\\d+", "<endpoint>");
            seen.add("$ etcdctl " + normalize(String.join(" ", args)) + (input == null ? "" : " <<< " + input.replace("\n", "\\n"))
                    + "\n  exit " + r.exitCode() + "\n  out: " + normalize(r.stdout()) + "\n  err: " + err);
            return r;
        }
    }

    private static List<String> scenario(EtcdProcess m) throws Exception {
        Transcript t = new Transcript(new Etcdctl(m.endpoint()));
        String[] root = {"--user", "root:rootpw"};
        String[] alice = {"--user", "alice:alicepw"};

        // enabling: refused without root; etcdctl adds the root role itself when the user lacks it
        t.run("auth", "enable");
        t.run("user", "add", "root:rootpw");
        t.run("user", "get", "root");
        t.run("auth", "enable");
        t.run("auth", "enable");
        // anonymous after enabling
        t.run("put", "foo", "bar");
        t.run("get", "foo");
        t.run("role", "add", "r0");
        // wrong and unknown credentials
        t.run(with(new String[] {"--user", "root:wrong"}, "get", "foo"));
        t.run(with(new String[] {"--user", "nobody:x"}, "get", "foo"));
        // users and roles, as root
        t.run(with(root, "put", "foo", "bar"));
        t.run(with(root, "user", "add", "alice:alicepw"));
        t.run(with(root, "user", "add", "alice:x"));
        t.run(with(root, "role", "add", "r1"));
        t.run(with(root, "role", "add", "r1"));
        t.run(with(root, "role", "add", ""));
        t.run(with(root, "role", "grant-permission", "r1", "readwrite", "/a/", "--prefix"));
        t.run(with(root, "role", "grant-permission", "r1", "read", "k1"));
        t.run(with(root, "role", "grant-permission", "r1", "write", "z", "--from-key"));
        t.run(with(root, "role", "grant-permission", "r1", "write", "k1", "k5"));
        t.run(with(root, "role", "grant-permission", "r1", "write", "k1", "k5"));
        t.run(with(root, "role", "grant-permission", "nor", "read", "k1"));
        t.run(with(root, "role", "get", "r1"));
        t.run(with(root, "-w", "json", "role", "get", "r1"));
        t.run(with(root, "role", "get", "root"));
        t.run(with(root, "role", "get", "nor"));
        t.run(with(root, "user", "grant-role", "alice", "r1"));
        t.run(with(root, "user", "grant-role", "alice", "r1"));
        t.run(with(root, "user", "grant-role", "alice", "nor"));
        t.run(with(root, "user", "grant-role", "nobody", "r1"));
        t.run(with(root, "user", "get", "alice"));
        t.run(with(root, "user", "get", "alice", "--detail"));
        t.run(with(root, "user", "get", "nobody"));
        t.run(with(root, "user", "list"));
        t.run(with(root, "role", "list"));
        // what alice may do
        t.run(with(alice, "put", "/a/x", "1"));
        t.run(with(alice, "get", "/a/x"));
        t.run(with(alice, "get", "/a/", "--prefix"));
        t.run(with(alice, "get", "/a", "--prefix"));
        t.run(with(alice, "put", "k1", "v"));
        t.run(with(alice, "get", "k1"));
        t.run(with(alice, "put", "k3", "v"));
        t.run(with(alice, "get", "k3"));
        t.run(with(alice, "put", "k5", "v"));
        t.run(with(alice, "put", "zz", "v"));
        t.run(with(alice, "get", "zz"));
        t.run(with(alice, "put", "foo", "v"));
        t.run(with(alice, "get", "foo"));
        t.run(with(alice, "put", "/a/y", "2", "--prev-kv"));
        t.run(with(alice, "put", "k3", "w", "--prev-kv"));
        t.run(with(alice, "del", "k1", "k4"));
        t.runWithInput("value(\"/a/x\") = \"1\"\n\nput /a/t 1\n\nget k1\n\n", with(alice, "txn"));
        t.runWithInput("value(\"k3\") = \"v\"\n\nput /a/t 1\n\n\n", with(alice, "txn"));
        t.runWithInput("\n\nput /a/t 1\n\nput foo 1\n\n", with(alice, "txn"));
        t.run(with(alice, "del", "/a/", "--prefix"));
        t.run(with(alice, "user", "list"));
        t.run(with(alice, "user", "get", "alice"));
        t.run(with(alice, "user", "get", "root"));
        t.run(with(alice, "role", "get", "r1"));
        t.run(with(alice, "role", "get", "root"));
        t.run(with(alice, "role", "add", "r2"));
        t.run(with(alice, "user", "add", "eve:x"));
        t.run(with(alice, "auth", "disable"));
        t.run(with(alice, "compaction", "1"));
        t.run(with(alice, "alarm", "list"));
        t.run(with(alice, "defrag"));
        t.run(with(alice, "endpoint", "hashkv"));
        Path snap = Files.createTempDirectory("auth-diff").resolve("s.db");
        t.run(with(alice, "snapshot", "save", snap.toString()));
        t.run(with(alice, "watch", "--prefix", "/"));
        t.run(with(alice, "watch", "foo"));
        // leases: only a user who may write every key of a lease may revoke it or attach to it
        Etcdctl.Result grant = t.run(with(alice, "lease", "grant", "100"));
        Matcher id = LEASE.matcher(grant.stdout());
        assertTrue(id.find(), grant.stdout());
        t.run(with(root, "put", "foo", "x", "--lease=" + id.group(1)));
        t.run(with(alice, "put", "/a/l", "v", "--lease=" + id.group(1)));
        t.run(with(alice, "lease", "revoke", id.group(1)));
        t.run(with(root, "del", "foo"));
        t.run(with(alice, "put", "/a/l", "v", "--lease=" + id.group(1)));
        t.run(with(alice, "lease", "revoke", id.group(1)));
        // revocations and deletions
        t.run(with(root, "role", "revoke-permission", "r1", "k1"));
        t.run(with(root, "role", "revoke-permission", "r1", "nothere"));
        t.run(with(root, "role", "revoke-permission", "r1", "k1", "k5"));
        t.run(with(alice, "put", "k1", "v"));
        t.run(with(root, "user", "revoke-role", "alice", "nor"));
        t.run(with(root, "user", "revoke-role", "alice", "r1"));
        t.run(with(alice, "get", "/a/x"));
        t.run(with(root, "user", "revoke-role", "root", "root"));
        t.run(with(root, "user", "delete", "root"));
        t.run(with(root, "role", "delete", "root"));
        t.run(with(root, "role", "delete", "nor"));
        t.run(with(root, "user", "grant-role", "alice", "r1"));
        t.run(with(root, "role", "delete", "r1"));
        t.run(with(root, "user", "get", "alice"));
        t.runWithInput("newpw\n", with(root, "user", "passwd", "alice", "--interactive=false"));
        t.run(with(alice, "user", "get", "alice"));
        t.run(with(new String[] {"--user", "alice:newpw"}, "user", "get", "alice"));
        t.run(with(root, "user", "delete", "nobody"));
        t.run(with(root, "user", "add", "bob", "--no-password"));
        t.run(with(new String[] {"--user", "bob:x"}, "get", "foo"));
        t.run(with(root, "user", "delete", "alice"));
        t.run(with(root, "user", "list"));
        // disabling
        t.run("auth", "disable");
        t.run(with(root, "auth", "disable"));
        t.run(with(root, "auth", "disable"));
        t.run("get", "foo");
        t.run("user", "list");
        t.run("role", "get", "root");
        return t.seen;
    }

    private static String[] with(String[] user, String... args) {
        String[] all = Arrays.copyOf(user, user.length + args.length);
        System.arraycopy(args, 0, all, user.length, args.length);
        return all;
    }

    /** Header IDs, revisions and terms differ between two servers; lease IDs too. */
    private static String normalize(String stdout) {
        return stdout.strip().replaceAll("\"header\":\\{[^}]*\\}", "\"header\":{}")
                .replaceAll("lease [0-9a-f]+ ", "lease <id> ").replaceAll("--lease=[0-9a-f]+", "--lease=<id>")
                .replaceAll("revoke [0-9a-f]+", "revoke <id>").replaceAll("127\\.0\\.0\\.1:\\d+", "<endpoint>")
                .replaceAll("auth-diff\\d+", "auth-diff").replace("\n", "\\n");
    }

    /** The error line a user reads: the last line that is not one of the client's JSON log lines. */
    private static String lastLine(String stderr) {
        List<String> lines = stderr.lines().filter(l -> !l.isBlank() && !l.startsWith("{")).toList();
        return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    }
}
