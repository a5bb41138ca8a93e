package io.etcdj.ctl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.ctl.RootCommand;
import io.etcdj.ctl.cli.EtcdctlApp;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Flags that etcdctl 3.5/3.6 added and 3.4 lacks, so there is no reference binary to compare with:
 * each is checked against etcd's documented behaviour and the real etcd 3.4 server's answer, and the
 * help pages must equal 3.4's apart from the added flag lines.
 */
class NewerFlagsIT {

    private static RealEtcd etcd;

    /** 3.6's global flags, listed on every command's help page. */
    private static final List<String> ADDED_GLOBALS = List.of("--max-recv-bytes=0", "--max-request-bytes=0");

    @BeforeAll
    static void start() throws Exception {
        etcd = RealEtcd.start("newer-flags");
    }

    @AfterAll
    static void stop() {
        if (etcd != null) {
            etcd.close();
        }
    }

    static Differ.Result ours(String... args) {
        List<String> all = new ArrayList<>(List.of("--endpoints=" + etcd.endpoint()));
        all.addAll(List.of(args));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new EtcdctlApp(RootCommand::tree).run(all.toArray(new String[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                new ByteArrayInputStream(new byte[0]), Map.of());
        return new Differ.Result(out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), code);
    }

    static Differ.Result okOurs(String... args) {
        Differ.Result r = ours(args);
        assertEquals(0, r.code(), r.toString());
        return r;
    }

    static String referenceHelp(String... command) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(RealEtcd.ETCDCTL.toString()));
        cmd.addAll(List.of(command));
        cmd.add("--help");
        return RealEtcd.realEtcdctl(cmd).mergeStderr().run().stdout();
    }

    /** Our help without the lines of the given added flags. */
    private static String helpWithout(List<String> addedFlags, String... command) {
        List<String> args = new ArrayList<>(List.of(command));
        args.add("--help");
        String help = okOurs(args.toArray(new String[0])).out();
        for (String flag : addedFlags) {
            assertTrue(help.contains("      " + flag), flag + " missing from help:\n" + help);
        }
        return Arrays.stream(help.split("\n", -1))
                .filter(line -> addedFlags.stream().noneMatch(f -> line.startsWith("      " + f)))
                .collect(Collectors.joining("\n"));
    }

    private static List<String> withGlobals(String... flags) {
        List<String> all = new ArrayList<>(List.of(flags));
        all.addAll(ADDED_GLOBALS);
        return all;
    }

    @Test
    void helpPagesEqual34sApartFromTheAddedFlags() throws Exception {
        assertEquals(referenceHelp("get"), helpWithout(withGlobals("--count-only[=false]", "--max-create-rev=0",
                "--max-mod-rev=0", "--min-create-rev=0", "--min-mod-rev=0"), "get"));
        assertEquals(referenceHelp("del"), helpWithout(withGlobals("--range[=false]"), "del"));
        assertEquals(referenceHelp("member", "list"), helpWithout(withGlobals("--consistency=\"l\""), "member", "list"));
        assertEquals(referenceHelp("put"), helpWithout(ADDED_GLOBALS, "put"));
        assertEquals(okOurs("get", "--help").out(), okOurs("help", "get").out());
    }

    @Test
    void countOnlyReturnsTheCountWithoutKeys() {
        okOurs("put", "count/a", "1");
        okOurs("put", "count/b", "2");
        okOurs("put", "count/c", "3");
        Differ.Result r = okOurs("get", "count/", "--prefix", "--count-only", "-w", "fields");
        assertTrue(r.out().contains("\"Count\" : 3\n"), r.toString());
        assertFalse(r.out().contains("\"Key\""), r.toString());
        assertEquals(new Differ.Result("", "Error: --count-only is only for `--write-out=fields`\n", 128).toString(),
                ours("get", "count/", "--prefix", "--count-only").toString());
        assertEquals(new Differ.Result("",
                "Error: `--keys-only` and `--count-only` cannot be set at the same time, choose one\n", 128).toString(),
                ours("get", "count/", "--prefix", "--count-only", "--keys-only", "-w", "fields").toString());
    }

    @Test
    void revisionFiltersSelectByCreateAndModRevision() {
        long r1 = revisionOfPut("filter/a", "1");
        long r2 = revisionOfPut("filter/b", "2");
        long r3 = revisionOfPut("filter/c", "3");
        long r4 = revisionOfPut("filter/a", "4");
        String prefix = "filter/";
        assertEquals("filter/b\nfilter/c\n", keys(prefix, "--min-create-rev=" + r2));
        assertEquals("filter/a\nfilter/b\n", keys(prefix, "--max-create-rev=" + r2));
        assertEquals("filter/b\nfilter/c\n", keys(prefix, "--max-mod-rev=" + r3));
        assertEquals("filter/a\n", keys(prefix, "--min-mod-rev=" + r4));
        assertEquals("filter/b\n", keys(prefix, "--min-create-rev=" + r2, "--max-mod-rev=" + r2));
        assertEquals("filter/a\nfilter/b\nfilter/c\n", keys(prefix, "--min-create-rev=" + r1));
    }

    private static long revisionOfPut(String key, String value) {
        String fields = okOurs("put", key, value, "-w", "fields").out();
        String line = fields.lines().filter(l -> l.startsWith("\"Revision\" : ")).findFirst().orElseThrow();
        return Long.parseLong(line.substring("\"Revision\" : ".length()));
    }

    private static String keys(String prefix, String... flags) {
        List<String> args = new ArrayList<>(List.of("get", prefix, "--prefix", "--keys-only"));
        args.addAll(List.of(flags));
        return okOurs(args.toArray(new String[0])).out().replace("\n\n", "\n");
    }

    @Test
    void delRangeDeletesTheRangeAtOnce() {
        okOurs("put", "range/a", "1");
        okOurs("put", "range/b", "2");
        okOurs("put", "range/c", "3");
        assertEquals(new Differ.Result("2\n", "", 0).toString(),
                ours("del", "range/a", "range/c", "--range").toString());
        assertEquals("range/c\n", okOurs("get", "range/", "--prefix", "--keys-only").out().replace("\n\n", "\n"));
    }

    @Test
    void memberListTakesAConsistency() {
        String linearizable = okOurs("member", "list").out();
        assertTrue(linearizable.contains(", started, newer-flags, "), linearizable);
        assertEquals(linearizable, okOurs("member", "list", "--consistency=l").out());
        assertEquals(linearizable, okOurs("member", "list", "--consistency", "s").out());
        assertEquals(new Differ.Result("", "Error: unknown consistency flag \"x\"\n", 4).toString(),
                ours("member", "list", "--consistency=x").toString());
    }

    /**
     * etcdctl 3.6's client message limits, with grpc-go's texts (a request of 1 000 bytes of value
     * is 1 008 bytes as a PutRequest: the key "big" and two field headers).
     */
    @Test
    void messageLimitsRefuseRequestsAndResponsesOverThem() {
        String value = "v".repeat(1000);
        Differ.Result sent = ours("--max-request-bytes=1000", "put", "big", value);
        assertEquals(1, sent.code(), sent.toString());
        assertTrue(sent.err().endsWith("Error: rpc error: code = ResourceExhausted desc = trying to send message larger "
                + "than max (1008 vs. 1000)\n"), sent.toString());
        okOurs("--max-request-bytes=2000", "put", "big", value);
        Differ.Result received = ours("--max-recv-bytes=500", "get", "big");
        assertEquals(1, received.code(), received.toString());
        assertTrue(received.err().contains("desc = grpc: received message larger than max ("), received.toString());
        assertTrue(received.err().contains(" vs. 500)"), received.toString());
        assertEquals(value + "\n", okOurs("--max-recv-bytes=4000", "get", "big", "--print-value-only").out());
        assertEquals(new Differ.Result("", "Error: gRPC message recv limit (10 bytes) must be greater than send limit "
                + "(20 bytes)\n", 2).toString(), ours("--max-recv-bytes=10", "--max-request-bytes=20", "get", "big").toString());
        Differ.Result bad = ours("--max-request-bytes=x", "get", "big");
        assertTrue(bad.err().startsWith("Error: invalid argument \"x\" for \"--max-request-bytes\" flag: "
                + "strconv.ParseInt: parsing \"x\": invalid syntax\n"), bad.toString());
    }
}
