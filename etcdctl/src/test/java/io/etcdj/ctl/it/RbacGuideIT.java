package io.etcdj.ctl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.Command;
import io.etcdj.harness.RunningCommand;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seed's RBAC guide ("Working with users", "Working with roles", "Enabling authentication",
 * "Using etcdctl to authenticate") as a user types it, passwords at the prompts (a pseudo-terminal
 * by util-linux {@code script}), against a 3-member cluster of ours: once with the real etcdctl 3.4
 * and once with ours, which must print the same. Then the users, roles and the auth switch go
 * through {@code snapshot save} and {@code snapshot restore} into a new member.
 */
class RbacGuideIT {
    private static final String REAL = RealEtcd.ETCDCTL.toString();
    private static final String OURS = OurMembers.ROOT.resolve("bin/etcdctl").toString();

    @TempDir
    Path dir;

    private record Run(int code, String out) {
    }

    /** etcdctl's password prompts: "Password: ", "Password of NAME: ", "Type password of NAME again for confirmation: ". */
    private static final Pattern PROMPT =
            Pattern.compile("(Password( of \\S+)?|Type password of \\S+ again for confirmation): ");

    /** Runs under a pseudo-terminal, typing {@code typed} (one line per prompt). */
    private Run typed(String tool, String endpoints, List<String> typed, String... args) throws Exception {
        StringBuilder cmd = new StringBuilder("ETCDCTL_API=3 ETCDJ_NO_DAEMON=1 ").append(tool).append(" --endpoints=").append(endpoints);
        for (String a : args) {
            cmd.append(' ').append(a);
        }
        try (RunningCommand p = Command.atTerminal(cmd.toString()).dir(dir).withoutEnv("ETCDCTL").start()) {
            for (int i = 0; i < typed.size(); i++) {
                // every line answers a password prompt: wait for the prompt (a loaded machine may take
                // seconds), then a moment for the terminal to turn echo off (what is typed earlier shows)
                int prompt = i + 1;
                p.awaitStdout(Duration.ofSeconds(30), shown -> PROMPT.matcher(shown).results().count() >= prompt);
                Thread.sleep(300);
                if (!p.type(typed.get(i) + "\n")) {
                    break; // the command ended before all was typed: its output says why
                }
            }
            p.closeStdin();
            Command.Result r = p.finish(Duration.ofSeconds(60));
            return new Run(r.exitCode(), normalize(r.stdout()));
        }
    }

    private Run plain(String tool, String endpoints, String... args) throws Exception {
        return typed(tool, endpoints, List.of(), args);
    }

    /** Client log lines carry times and random IDs; a terminal ends lines with CR LF. */
    private static String normalize(String out) {
        return String.join("\n", out.replace("\r", "").lines().filter(l -> !l.startsWith("{\"level\"")).toList());
    }

    private List<String> guide(String tool, List<OurMembers.Member> cluster) throws Exception {
        String all = String.join(",", cluster.stream().map(OurMembers.Member::endpoint).toList());
        String m2 = cluster.get(1).endpoint();
        String m3 = cluster.get(2).endpoint();
        List<String> seen = new ArrayList<>();
        record Step(String endpoints, List<String> typed, String[] args) {
        }
        List<Step> steps = List.of(
                new Step(all, List.of("rootpw", "rootpw"), new String[] {"user", "add", "root"}),
                new Step(all, List.of(), new String[] {"auth", "enable"}),
                new Step(m2, List.of(), new String[] {"--user", "root:rootpw", "role", "list"}),
                new Step(all, List.of(), new String[] {"--user", "root:rootpw", "role", "add", "myrolename"}),
                new Step(all, List.of(), new String[] {"--user", "root:rootpw", "role", "grant-permission", "myrolename", "read", "/foo"}),
                new Step(all, List.of(), new String[] {"--user", "root:rootpw", "role", "grant-permission", "myrolename",
                        "--prefix=true", "read", "/foo/"}),
                new Step(all, List.of(), new String[] {"--user", "root:rootpw", "role", "grant-permission", "myrolename",
                        "write", "/foo/bar"}),
                new Step(all, List.of(), new String[] {"--user", "root:rootpw", "role", "grant-permission", "myrolename",
                        "readwrite", "key1", "key5"}),
                new Step(all, List.of(), new String[] {"--user", "root:rootpw", "role", "grant-permission", "myrolename",
                        "--prefix=true", "readwrite", "/pub/"}),
                new Step(m3, List.of(), new String[] {"--user", "root:rootpw", "role", "get", "myrolename"}),
                new Step(all, List.of(), new String[] {"--user", "root:rootpw", "role", "revoke-permission", "myrolename", "/foo/bar"}),
                new Step(all, List.of("userpw", "userpw"), new String[] {"--user", "root:rootpw", "user", "add", "myusername"}),
                new Step(all, List.of(), new String[] {"--user", "root:rootpw", "user", "grant-role", "myusername", "myrolename"}),
                new Step(m2, List.of(), new String[] {"--user", "root:rootpw", "user", "get", "myusername"}),
                new Step(m3, List.of(), new String[] {"--user", "root:rootpw", "user", "list"}),
                new Step(all, List.of(), new String[] {"--user", "myusername:userpw", "put", "/pub/x", "1"}),
                new Step(m2, List.of(), new String[] {"--user", "myusername:userpw", "get", "/pub/x"}),
                new Step(m3, List.of("userpw"), new String[] {"--user", "myusername", "get", "/foo"}),
                new Step(all, List.of(), new String[] {"--user", "myusername:userpw", "put", "/foo/bar", "no"}),
                new Step(all, List.of(), new String[] {"--user", "myusername:userpw", "put", "key3", "v"}),
                new Step(all, List.of(), new String[] {"get", "/pub/x"}),
                new Step(all, List.of("newpw", "newpw"), new String[] {"--user", "root:rootpw", "user", "passwd", "myusername"}),
                new Step(m2, List.of(), new String[] {"--user", "myusername:userpw", "get", "/pub/x"}),
                new Step(m3, List.of(), new String[] {"--user", "myusername:newpw", "get", "/pub/x"}),
                new Step(all, List.of(), new String[] {"--user", "root:rootpw", "user", "revoke-role", "myusername", "myrolename"}),
                new Step(all, List.of(), new String[] {"--user", "myusername:newpw", "get", "/pub/x"}),
                new Step(all, List.of(), new String[] {"--user", "root:rootpw", "role", "delete", "myrolename"}),
                new Step(all, List.of(), new String[] {"--user", "root:rootpw", "user", "delete", "myusername"}),
                new Step(all, List.of(), new String[] {"--user", "root:rootpw", "auth", "disable"}),
                new Step(all, List.of(), new String[] {"get", "/pub/x"}),
                new Step(all, List.of(), new String[] {"user", "delete", "root"}));
        for (Step s : steps) {
            Run r = typed(tool, s.endpoints(), s.typed(), s.args());
            seen.add("$ etcdctl " + String.join(" ", s.args()) + "\n" + r.out() + "\n[exit " + r.code() + "]");
        }
        return seen;
    }

    @Test
    void theGuideRunsOnThreeMembersWithEitherEtcdctl() throws Exception {
        try (OurMembers members = new OurMembers(dir)) {
            List<OurMembers.Member> cluster = List.of(OurMembers.member("m1"), OurMembers.member("m2"),
                    OurMembers.member("m3"));
            String initial = OurMembers.initialCluster(cluster);
            for (OurMembers.Member m : cluster) {
                members.launch(m, initial, "new", "rbac");
            }
            for (OurMembers.Member m : cluster) {
                OurMembers.awaitPort(m.client());
            }
            List<String> real = guide(REAL, cluster);
            System.out.println("RBAC guide with the real etcdctl:\n" + String.join("\n", real));
            List<String> ours = guide(OURS, cluster);
            assertTrue(real.get(0).contains("User root created"), real.get(0));
            assertTrue(String.join("\n", real).contains("Error: etcdserver: permission denied"));
            assertEquals(String.join("\n", real), String.join("\n", ours));
        }
    }

    @Test
    void usersRolesAndTheSwitchSurviveSnapshotAndRestore() throws Exception {
        try (OurMembers members = new OurMembers(dir)) {
            OurMembers.Member old = OurMembers.member("old");
            members.start(old, OurMembers.initialCluster(List.of(old)), "new", "rbac");
            String ep = old.endpoint();
            for (String[] args : List.of(new String[] {"user", "add", "root:rootpw"},
                    new String[] {"user", "grant-role", "root", "root"}, new String[] {"user", "add", "u:pw"},
                    new String[] {"role", "add", "r"}, new String[] {"role", "grant-permission", "r", "read", "k"},
                    new String[] {"user", "grant-role", "u", "r"}, new String[] {"put", "k", "v"},
                    new String[] {"auth", "enable"})) {
                assertEquals(0, plain(OURS, ep, args).code(), String.join(" ", args));
            }
            Run save = plain(OURS, ep, "--user", "root:rootpw", "snapshot", "save", "auth.db");
            assertEquals(0, save.code(), save.out());
            members.close();

            OurMembers.Member fresh = OurMembers.member("fresh");
            Run restore = plain(OURS, ep, "snapshot", "restore", "auth.db", "--name", "fresh", "--data-dir",
                    dir.resolve("fresh.etcd").toString(), "--initial-cluster", OurMembers.initialCluster(List.of(fresh)),
                    "--initial-advertise-peer-urls", fresh.peerUrl(), "--initial-cluster-token", "rbac");
            assertEquals(0, restore.code(), restore.out());
            members.start(fresh, OurMembers.initialCluster(List.of(fresh)), "new", "rbac");
            assertEquals("root\nu", plain(OURS, fresh.endpoint(), "--user", "root:rootpw", "user", "list").out());
            assertEquals("k\nv", plain(REAL, fresh.endpoint(), "--user", "u:pw", "get", "k").out());
            Run anonymous = plain(REAL, fresh.endpoint(), "get", "k");
            assertEquals("Error: etcdserver: user name is empty", anonymous.out());
            assertEquals("Error: etcdserver: permission denied",
                    plain(REAL, fresh.endpoint(), "--user", "u:pw", "put", "k", "w").out());
        }
    }
}
