package io.etcdj.ctl.it;

import com.google.protobuf.Message;
import io.etcdj.api.etcdserverpb.DeleteRangeResponse;
import io.etcdj.api.etcdserverpb.MemberListResponse;
import io.etcdj.api.etcdserverpb.PutResponse;
import io.etcdj.api.etcdserverpb.RangeResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assertions;

/**
 * The differential script, written once: the etcdctl command lines (and what is typed on standard
 * input) that {@link DifferentialIT} runs in a pipe and {@link TerminalScriptIT} at a terminal, the real
 * etcdctl against one twin etcd and ours against the other. Steps run in order because later ones
 * depend on the history earlier ones wrote. {@code {LEASE}} stands for the lease ID the same side was
 * last granted.
 */
final class DifferentialSteps {

    private static final Pattern GRANTED = Pattern.compile("lease ([0-9a-f]{16}) granted");

    /** etcdctl 3.6's global flags, on every help page that lists the global options. */
    static final List<String> GLOBALS_ADDED_IN_36 = List.of("--max-recv-bytes=", "--max-request-bytes=");

    private DifferentialSteps() {
    }

    /**
     * One scripted invocation: standard input and arguments. Input ends (end of file) after
     * {@code stdin} unless {@code inputStaysOpen}: then the command must end by itself while its
     * input is still open, as {@code watch -i} does when a line's command fails. {@code env} holds
     * variables set for this command only (as {@code NAME=value etcdctl ...} at a shell).
     */
    record Step(String stdin, boolean inputStaysOpen, Map<String, String> env, String... args) {
        boolean protobuf() {
            return String.join(" ", args).endsWith("-w protobuf");
        }

        String name() {
            StringBuilder vars = new StringBuilder();
            env.forEach((k, v) -> vars.append(k).append('=').append(v).append(' '));
            return vars + String.join(" ", args) + (stdin.isEmpty() ? "" : " <<< " + stdin.replace("\n", "\\n"));
        }
    }

    private static Step run(String... args) {
        return new Step("", false, Map.of(), args);
    }

    private static Step withInput(String stdin, String... args) {
        return new Step(stdin, false, Map.of(), args);
    }

    private static Step withOpenInput(String stdin, String... args) {
        return new Step(stdin, true, Map.of(), args);
    }

    private static Step withVariable(String name, String value, String... args) {
        return new Step("", false, Map.of(name, value), args);
    }

    static List<Step> script(Path snapshot) {
        List<Step> s = new ArrayList<>();
        // The seed's "interacting with etcd" session.
        s.add(run("put", "foo", "bar"));
        s.add(run("put", "foo1", "bar1"));
        s.add(run("put", "foo2", "bar2"));
        s.add(run("put", "foo3", "bar3"));
        s.add(run("get", "foo"));
        s.add(run("get", "foo", "--hex"));
        s.add(run("get", "foo", "--print-value-only"));
        s.add(run("get", "foo", "foo3"));
        s.add(run("get", "--prefix", "foo"));
        s.add(run("get", "--prefix", "--limit=2", "foo"));
        s.add(run("put", "foo", "bar_new"));
        s.add(run("get", "--prefix", "--rev=4", "foo"));
        s.add(run("get", "--prefix", "--rev=3", "foo"));
        s.add(run("get", "--prefix", "--rev=2", "foo"));
        s.add(run("get", "--prefix", "--rev=1", "foo"));
        s.add(run("put", "a", "123"));
        s.add(run("put", "b", "456"));
        s.add(run("put", "z", "789"));
        s.add(run("get", "--from-key", "b"));
        s.add(run("get", "mykey", "-w=json"));
        // Every output format of the KV commands.
        for (String w : List.of("json", "fields", "table", "simple")) {
            s.add(run("get", "--prefix", "foo", "-w", w));
            s.add(run("get", "foo", "--hex", "-w", w));
            s.add(run("put", "fmt", "v-" + w, "--prev-kv", "-w", w));
            s.add(run("del", "fmt", "--prev-kv", "-w", w));
            s.add(run("get", "--prefix", "foo", "--keys-only", "--order=DESCEND", "--sort-by=VALUE", "-w", w));
        }
        // protobuf output is binary: compared after decoding, with the twins' IDs cleared.
        s.add(run("get", "--prefix", "foo", "-w", "protobuf"));
        s.add(run("put", "pb", "v", "--prev-kv", "-w", "protobuf"));
        s.add(run("del", "pb", "--prev-kv", "-w", "protobuf"));
        s.add(run("member", "list", "-w", "protobuf"));
        s.add(run("get", "foo", "--consistency=s", "--rev=0"));
        s.add(run("get", "", "--prefix", "--keys-only"));
        s.add(withInput("from-stdin", "put", "stdinkey"));
        s.add(run("get", "stdinkey"));
        s.add(run("put", "weird", "-w", "json", "--", "-dash"));
        s.add(run("get", "weird"));
        // del, from the seed.
        s.add(run("del", "foo"));
        s.add(run("del", "foo", "foo9"));
        s.add(run("put", "zoo", "val"));
        s.add(run("put", "zoo1", "val1"));
        s.add(run("put", "zoo2", "val2"));
        s.add(run("del", "--prev-kv", "zoo"));
        s.add(run("del", "--prefix", "zoo"));
        s.add(run("del", "--from-key", "b"));
        // txn.
        s.add(run("put", "x", "1"));
        for (String w : List.of("simple", "json", "fields")) {
            s.add(withInput("value(\"x\") = \"1\"\n\nput x 2\nget x\n\ndel x\n\n", "txn", "-w", w));
            s.add(withInput("mod(\"x\") > \"1000\"\n\nput x 3\n\nget x --prefix\ndel nothing\n\n", "txn", "-w", w));
        }
        s.add(withInput("version(\"x\") != \"0\"\ncreate(\"x\") < \"1000\"\n\nput y 1\n\n\n", "txn", "-i"));
        s.add(withInput("value(\"x\") = \"2\"\n\n\nput x 5\n\n", "txn", "--hex"));
        s.add(withInput("bogus\n\n", "txn"));
        s.add(withInput("mod(\"x\") > \"0\"\n", "txn"));
        s.add(run("txn", "extra"));
        // compaction.
        s.add(run("compaction", "3"));
        s.add(run("compaction", "3"));
        s.add(run("compaction", "999999"));
        s.add(run("get", "foo", "--rev=2"));
        s.add(run("compaction", "--physical", "4"));
        // leases.
        s.add(run("lease", "grant", "500"));
        s.add(run("put", "zoo1", "val1", "--lease={LEASE}"));
        // One attached key only: etcd lists several in no fixed order.
        s.add(run("lease", "timetolive", "{LEASE}", "--keys", "-w", "fields"));
        s.add(run("lease", "timetolive", "{LEASE}", "--keys"));
        s.add(run("put", "zoo2", "val2", "--lease={LEASE}"));
        s.add(run("lease", "list"));
        s.add(run("lease", "list", "-w", "fields"));
        s.add(run("lease", "keep-alive", "--once", "{LEASE}", "-w", "json"));
        s.add(run("lease", "keep-alive", "--once", "{LEASE}", "-w", "fields"));
        s.add(run("lease", "revoke", "{LEASE}"));
        s.add(run("get", "zoo1"));
        s.add(run("lease", "revoke", "{LEASE}"));
        s.add(run("lease", "timetolive", "{LEASE}"));
        s.add(run("lease", "timetolive", "1234", "-w", "json"));
        s.add(run("lease", "keep-alive", "--once", "1234"));
        s.add(run("lease", "grant", "100", "-w", "fields"));
        s.add(run("lease", "revoke", "{LEASE}", "-w", "json"));
        s.add(run("lease", "grant", "x"));
        s.add(run("lease", "grant"));
        s.add(run("lease", "revoke", "zz"));
        s.add(run("lease", "timetolive"));
        s.add(run("put", "k", "v", "--lease=zz"));
        s.add(run("put", "k", "v", "--lease=1234"));
        // members and endpoints.
        for (String w : List.of("simple", "json", "fields", "table")) {
            s.add(run("member", "list", "-w", w));
        }
        s.add(run("endpoint", "hashkv"));
        s.add(run("endpoint", "hashkv", "-w", "json"));
        s.add(run("endpoint", "health", "-w", "json"));
        s.add(run("endpoint", "status", "-w", "protobuf"));
        s.add(run("member", "remove", "zz"));
        s.add(run("member", "remove", "1234"));
        s.add(run("member", "add"));
        s.add(run("member", "add", "x"));
        s.add(run("member", "promote"));
        s.add(run("alarm", "list"));
        s.add(run("alarm", "list", "-w", "json"));
        s.add(run("alarm", "disarm"));
        s.add(run("move-leader"));
        s.add(run("move-leader", "zz"));
        s.add(run("move-leader", "1234"));
        s.add(run("snapshot", "save"));
        s.add(run("snapshot", "save", snapshot.toString()));
        s.add(run("snapshot", "save", "/nonexistent/dir/s.db"));
        s.add(run("--endpoints=127.0.0.1:1", "snapshot", "save", snapshot.toString()));
        // auth, users and roles (auth is enabled and disabled again at the end).
        for (String w : List.of("simple", "json", "fields")) {
            s.add(run("role", "add", "r-" + w, "-w", w));
            s.add(run("role", "grant-permission", "r-" + w, "readwrite", "foo", "-w", w));
            s.add(run("role", "grant-permission", "r-" + w, "read", "a", "--prefix", "-w", w));
            s.add(run("role", "grant-permission", "r-" + w, "write", "b", "--from-key", "-w", w));
            s.add(run("role", "grant-permission", "r-" + w, "write", "c", "d", "-w", w));
            s.add(run("role", "get", "r-" + w, "-w", w));
            s.add(run("role", "list", "-w", w));
            s.add(run("role", "revoke-permission", "r-" + w, "foo", "-w", w));
            s.add(run("user", "add", "u-" + w + ":pw", "-w", w));
            s.add(run("user", "grant-role", "u-" + w, "r-" + w, "-w", w));
            s.add(run("user", "get", "u-" + w, "-w", w));
            s.add(run("user", "list", "-w", w));
            s.add(run("user", "revoke-role", "u-" + w, "r-" + w, "-w", w));
            s.add(run("user", "delete", "u-" + w, "-w", w));
            s.add(run("role", "delete", "r-" + w, "-w", w));
        }
        s.add(run("role", "add", "r1"));
        s.add(run("role", "add", "r1"));
        s.add(run("role", "grant-permission", "r1", "read", "a", "b"));
        s.add(run("role", "grant-permission", "r1"));
        s.add(run("role", "grant-permission", "r1", "bad", "foo"));
        s.add(run("role", "revoke-permission", "r1", "zzz"));
        s.add(run("role", "revoke-permission", "r1", "a", "b"));
        s.add(run("role", "grant-permission", "r1", "read", "k", "--from-key"));
        s.add(run("role", "revoke-permission", "r1", "k", "--from-key"));
        s.add(run("role", "grant-permission", "r1", "write", "p", "--prefix"));
        s.add(run("role", "revoke-permission", "r1", "p", "--prefix", "-w", "json"));
        // an empty key is etcdctl's "\x00": with --prefix or --from-key the whole key space (etcd's e2e TestCtlV3AuthPrefixPerm)
        s.add(run("role", "grant-permission", "r1", "readwrite", "", "--prefix"));
        s.add(run("role", "grant-permission", "r1", "read", "", "--from-key"));
        s.add(run("role", "grant-permission", "r1", "write", ""));
        s.add(run("role", "get", "r1", "-w", "json"));
        s.add(run("role", "grant-permission", "r1", "read", "", "--from-key", "--prefix"));
        s.add(run("role", "grant-permission", "r1", "read", "a", "b", "--prefix"));
        s.add(run("role", "grant-permission", "r1", "read", "a", "b", "--from-key"));
        s.add(run("role", "revoke-permission", "r1", "", "--prefix"));
        s.add(run("role", "revoke-permission", "r1", ""));
        s.add(run("user", "add", "u1:p1"));
        s.add(run("user", "grant-role", "u1", "r1"));
        s.add(run("user", "get", "u1", "--detail"));
        s.add(run("user", "delete", "nobody"));
        s.add(run("user", "add"));
        s.add(run("auth", "enable"));
        s.add(run("user", "add", "root:rootpw"));
        s.add(run("auth", "enable"));
        s.add(run("get", "foo"));
        s.add(run("--user=root:bad", "get", "foo"));
        s.add(run("--user=root:rootpw", "get", "foo1"));
        s.add(run("--user=root", "--password=rootpw", "auth", "disable"));
        s.add(run("auth", "enable", "x"));
        s.add(run("version"));
        s.add(run("lock", "mylock", "--", "sh", "-c", "echo locked $ETCD_LOCK_KEY $ETCD_LOCK_REV"));
        s.add(run("lock"));
        // lock's command: stdin is /dev/null, stdout the terminal (or pipe) etcdctl has
        s.add(withInput("typed\n", "lock", "tl", "--", "sh", "-c", "cat; test -t 1 && echo terminal || echo no terminal"));
        // watch running a command per event (etcdctl 3.4: after printing the response, with
        // ETCD_WATCH_REVISION the response's revision and Go-quoted type, key and value); a command
        // that fails or cannot start ends watch with "command [...] error (...)" and exit code 1,
        // which is how these steps end. Compaction kept revision 5 on.
        s.add(run("put", "w/a", "1"));
        s.add(run("put", "w/b", "2"));
        s.add(run("del", "w/a"));
        s.add(run("put", "w/a", "last"));
        String show = "echo $ETCD_WATCH_REVISION $ETCD_WATCH_EVENT_TYPE $ETCD_WATCH_KEY $ETCD_WATCH_VALUE;"
                + " case $ETCD_WATCH_VALUE in *last*) exit 1;; esac";
        s.add(run("watch", "--prefix", "w/", "--rev=5", "--", "sh", "-c", show));
        s.add(run("watch", "w/a", "--rev=5", "--", "sh", "-c", show));
        s.add(run("watch", "--rev=5", "w/a", "w/c", "--prev-kv", "--", "sh", "-c", show));
        s.add(run("watch", "--rev=5", "w/a", "-w", "fields", "--", "sh", "-c", show));
        s.add(run("watch", "--rev=5", "w/b", "--", "sh", "-c", "exit 3"));
        s.add(run("watch", "--rev=5", "w/b", "--", "sh", "-c", "kill -9 $$"));
        s.add(run("watch", "--rev=5", "w/b", "--", "no-such-command", "x"));
        s.add(run("watch", "--rev=5", "w/b", "--", "./no/such/file"));
        s.add(withInput("typed\n", "watch", "--rev=5", "w/b", "--", "sh", "-c",
                "cat; test -t 1 && echo terminal || echo no terminal; false"));
        // the key from ETCDCTL_WATCH_KEY (and ETCDCTL_WATCH_RANGE_END), and its conflicts
        s.add(withVariable("ETCDCTL_WATCH_KEY", "w/a", "watch", "--rev=5", "--", "sh", "-c", show));
        s.add(withVariable("ETCDCTL_WATCH_KEY", "w/a", "watch", "w/a", "--", "sh", "-c", show));
        s.add(withVariable("ETCDCTL_WATCH_KEY", "w/a", "watch", "w/a"));
        s.add(withVariable("ETCDCTL_WATCH_RANGE_END", "w/z", "watch", "w/a"));
        s.add(run("watch", "w/a", "--"));
        s.add(run("watch", "--", "echo", "hi"));
        s.add(run("watch"));
        s.add(withOpenInput("watch --rev=5 w/a -- sh -c \"" + show + "\"\n", "watch", "-i"));
        s.add(withOpenInput("get w/a\nbogus\n\nprogress\nwatch\nwatch -- echo hi\nwatch w/b --rev=5 --prefix -- sh -c \"exit 2\"\n",
                "watch", "-i"));
        s.add(withOpenInput("watch w/a --\n", "watch", "-i"));
        s.add(withInput("watch --bogus w/a\n", "watch", "-i"));
        s.add(run("elect"));
        s.add(run("elect", "a", "b", "c"));
        s.add(run("lock", "--help"));
        s.add(run("elect", "--help"));
        // Argument and flag errors.
        s.add(run("get"));
        s.add(run("get", "--bogus", "x"));
        s.add(run("get", "-x"));
        s.add(run("get", "a", "--rev=abc"));
        s.add(run("get", "a", "--rev"));
        s.add(run("--dial-timeout=xx", "get", "a"));
        s.add(run("--hex=x", "get", "a"));
        s.add(run("get", "a", "b", "--prefix"));
        s.add(run("get", "a", "--prefix", "--from-key"));
        s.add(run("get", "a", "--order=x"));
        s.add(run("get", "a", "--sort-by=x"));
        s.add(run("get", "a", "--consistency=x"));
        s.add(run("get", "a", "--print-value-only", "-w", "json"));
        s.add(run("get", "a", "-w", "xml"));
        s.add(run("put"));
        s.add(run("put", "a", "b", "--ignore-value"));
        s.add(run("del"));
        s.add(run("del", "a", "b", "c"));
        s.add(run("compaction"));
        s.add(run("compaction", "x"));
        s.add(run("bogus"));
        s.add(run("lease"));
        s.add(run("lease", "grant", "--help"));
        s.add(run("get", "--help"));
        s.add(run("put", "-h"));
        s.add(run("del", "--help"));
        s.add(run("compaction", "--help"));
        s.add(run("member", "list", "--help"));
        s.add(run("member", "add", "--help"));
        s.add(run("lease", "timetolive", "--help"));
        s.add(run("txn", "--help"));
        s.add(run("help", "get"));
        s.add(run("--command-timeout=1s", "--endpoints=127.0.0.1:1", "get", "a"));
        // cobra's prefix matching (on in etcdctl): unambiguous prefixes of commands and subcommands
        s.add(run("pu", "prefix/a", "1"));
        s.add(run("g", "prefix/a"));
        s.add(run("ge", "prefix/", "--prefix", "-w", "json"));
        s.add(run("compac", "--help"));
        s.add(run("mem", "li", "-w", "table"));
        s.add(run("help", "mem"));
        s.add(run("lea", "gr", "600"));
        s.add(run("lea", "re", "{LEASE}"));
        // ambiguous or unknown: cobra's "Did you mean this?" block (none of the m-commands: etcdctl 3.4 has migrate, we do not)
        s.add(run("l"));
        s.add(run("putt", "a", "b"));
        s.add(run("xyz"));
        s.add(run("mem", "xyz"));
        // comparisons read as Go's Sscanf("%q) %s %q") reads them, with its error texts
        for (String cmp : List.of("value(c) = \"3\"", "value(\"c\") = 3", "value(\"c\")=\"3\"", "value( \"c\") = \"3\"",
                "value(\"c\") = \"3\" extra", "value (\"c\") = \"3\"", "foo(\"c\") = \"3\"", "value(`c`) = \"3\"",
                "value(\"\\x41\") = \"3\"", "version(\"c\") = \"x\"", "bogus")) {
            s.add(withInput(cmp + "\n\nput cmp/ok 1\n\n", "txn"));
        }
        return s;
    }

    /**
     * The step where ours differs from etcdctl 3.4 by design (beyond etcd, etcd #11695: see "Beyond
     * etcd" in docs/etcdctl.md): {@code --endpoints=127.0.0.1:1 snapshot save FILE}, to which the
     * harness's own {@code --endpoints=TWIN} before it adds an endpoint (a repeated pflag string
     * slice appends), so the command names two endpoints. etcdctl refuses several endpoints
     * (exit 5, "snapshot must be requested to one selected node, not multiple"); ours takes the
     * snapshot from the first member that delivers and says which. Checks both sides of that and
     * returns true for this step; false, checking nothing, for every other.
     */
    static boolean snapshotFromSeveralEndpoints(Step step, Differ.Result reference, Differ.Result ours) {
        List<String> a = List.of(step.args());
        if (!(a.contains("snapshot") && a.contains("save") && a.stream().anyMatch(w -> w.startsWith("--endpoints=")))) {
            return false;
        }
        String etcd = reference.out() + reference.err();
        Assertions.assertEquals(5, reference.code(), etcd);
        Assertions.assertTrue(
                etcd.contains("Error: snapshot must be requested to one selected node, not multiple ["), etcd);
        String got = ours.out() + ours.err();
        Assertions.assertEquals(0, ours.code(), got);
        Assertions.assertTrue(got.contains("Snapshot saved at " + a.get(a.size() - 1)), got);
        Assertions.assertTrue(got.contains("Snapshot taken from member "), got);
        return true;
    }

    /**
     * Our usage text minus the lines of flags that etcdctl 3.5/3.6 added (3.4's pages lack them);
     * NewerFlagsIT checks that those lines are there.
     */
    static Differ.Result without35And36FlagLines(Step step, Differ.Result r) {
        List<String> added = new ArrayList<>(List.of("--count-only[=false]", "--min-create-rev=",
                "--max-create-rev=", "--min-mod-rev=", "--max-mod-rev=", "--range[=false]"));
        added.addAll(GLOBALS_ADDED_IN_36);
        if (List.of(step.args()).contains("member")) {
            added.add("--consistency=");
        }
        String out = Arrays.stream(r.out().split("\n", -1))
                .filter(line -> added.stream().noneMatch(f -> line.startsWith("      " + f)))
                .collect(Collectors.joining("\n"));
        return out.equals(r.out()) ? r : new Differ.Result(out, r.err(), r.code());
    }

    /** {@code r} with the lines of etcdctl 3.6's global flags taken out of its usage text. */
    static Differ.Result withoutNewerGlobalFlagLines(Differ.Result r) {
        String out = Arrays.stream(r.out().split("\n", -1))
                .filter(line -> GLOBALS_ADDED_IN_36.stream().noneMatch(f -> line.startsWith("      " + f)))
                .collect(Collectors.joining("\n"));
        return out.equals(r.out()) ? r : new Differ.Result(out, r.err(), r.code());
    }

    /** The protobuf output parsed as the command's response type, IDs and member URLs blanked. */
    static String decoded(Step step, Differ.Result r) throws Exception {
        return decoded(step, r.rawOut());
    }

    /** {@code bytes} parsed as the response type of the step's command, IDs and member URLs blanked. */
    static String decoded(Step step, byte[] bytes) throws Exception {
        Message m = switch (step.args()[0]) {
            case "get" -> RangeResponse.parseFrom(bytes);
            case "put" -> PutResponse.parseFrom(bytes);
            case "del" -> DeleteRangeResponse.parseFrom(bytes);
            default -> MemberListResponse.parseFrom(bytes);
        };
        return m.toString().replaceAll("(cluster_id|member_id|ID): [0-9]+", "$1: <ID>")
                .replaceAll("127\\.0\\.0\\.1:[0-9]+", "127.0.0.1:<PORT>");
    }

    static String[] substitute(String[] args, String lease) {
        String[] out = args.clone();
        for (int i = 0; i < out.length; i++) {
            out[i] = out[i].replace("{LEASE}", lease);
        }
        return out;
    }

    static String lease(Differ.Result r, String previous) {
        Matcher m = GRANTED.matcher(r.out());
        if (m.find()) {
            return m.group(1);
        }
        Matcher f = Pattern.compile("\"ID\" : (\\d+)").matcher(r.out());
        if (r.out().contains("\"TTL\"") && f.find() && !r.out().contains("GrantedTTL")) {
            return Long.toHexString(Long.parseLong(f.group(1)));
        }
        return previous;
    }
}
