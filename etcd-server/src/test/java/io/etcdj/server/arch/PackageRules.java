package io.etcdj.server.arch;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.simpleName;
import static com.tngtech.archunit.lang.conditions.ArchConditions.callMethod;
import static com.tngtech.archunit.lang.conditions.ArchConditions.never;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.RandomAccessFile;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Timer;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.stream.Stream;

/**
 * One rule per row of docs/server.md's package table, keyed by the row's first cell as written
 * there: the "must not touch" column as dependencies the row's packages must not have. A rule's
 * description names the row, so a build broken by a new dependency says which row it breaks.
 */
final class PackageRules {
    private static final String SERVER = "io.etcdj.server.";

    /** Raft's core and its message types. */
    private static final String[] RAFT = {"io.etcdj.raft..", "io.etcdj.raftpb.."};
    /** The member's files: the backend and its formats, the WAL and snapshots, the offline tools. */
    private static final String[] STORAGE = server("backend", "mvcc", "wal", "snap", "bbolt", "datadir");
    /** The running member: its core, its start-up, its client and peer services, its applier. */
    private static final String[] MEMBER = server("etcdserver", "embed", "api", "gateway", "transport", "apply");
    private static final String[] GRPC_AND_HTTP = {"io.grpc..", "io.netty.handler.codec.http..", SERVER + "gateway.."};
    /** The member's whole metrics registry and the Prometheus client: storage is handed its own instruments instead. */
    private static final DescribedPredicate<JavaClass> REGISTRY = DescribedPredicate
            .<JavaClass>describe("metrics.Metrics", c -> c.getName().equals(SERVER + "metrics.Metrics"))
            .or(resideInAPackage("io.prometheus..")).as("the member's Metrics, the Prometheus client");
    /** Starting threads or handing work to one. */
    private static final DescribedPredicate<JavaClass> THREADS = belongToAnyOf(Thread.class, Executor.class,
            ExecutorService.class, ScheduledExecutorService.class, Executors.class, ThreadFactory.class, ForkJoinPool.class,
            Timer.class).as("threads and executors");

    /** api's *Operations interfaces and the types they nest (a watch's selection, listener and handle). */
    private static final DescribedPredicate<JavaClass> OPERATIONS = DescribedPredicate.describe("api's *Operations",
            c -> outermost(c).endsWith("Operations"));

    /** Each row's packages and what they must not depend on (the raft row's calls to the clock aside). */
    private static final Map<String, Row> ROWS = new LinkedHashMap<>();

    static final Map<String, ArchRule> ALL = rules();

    private PackageRules() {
    }

    private static Map<String, ArchRule> rules() {
        Map<String, ArchRule> rules = new LinkedHashMap<>();
        add(rules, "`io.etcdj.server`", new String[] {"io.etcdj.server"}, allBut("io.etcdj.server..", "io.etcdj.server",
                SERVER + "embed..", SERVER + "config..", SERVER + "log..", SERVER + "version..", SERVER + "osutil..",
                SERVER + "proxy.."));
        add(rules, "`embed`", server("embed"), packages(RAFT, STORAGE));
        add(rules, "`etcdserver`", server("etcdserver"), packages(GRPC_AND_HTTP)
                .or(resideInAPackage(SERVER + "api..").and(DescribedPredicate.not(OPERATIONS))
                        .and(DescribedPredicate.not(simpleName("Caller"))))
                .as("gRPC, HTTP, the gateway, api's classes but its *Operations interfaces (with the types nested in them)"
                        + " and the Caller they are given"));
        DescribedPredicate<JavaClass> raftForbidden = packages(new String[] {"io.etcdj.server..", "io.grpc..", "io.netty..",
            "java.util.concurrent..", "java.net..", "java.nio.channels..", "java.nio.file..", "java.time.."})
                .or(belongToAnyOf(Thread.class, Timer.class, File.class, FileInputStream.class, FileOutputStream.class,
                        RandomAccessFile.class))
                .as("the server, gRPC, Netty, threads and java.util.concurrent, sockets, files, java.time");
        String[] raft = {"io.etcdj.raft.."};
        ROWS.put("`raft` (module `raft`)", new Row(resideInAnyPackage(raft), raftForbidden));
        rules.put("`raft` (module `raft`)", rule("`raft` (module `raft`)", raft, notDependOn(raftForbidden)
                .and(never(callMethod(System.class, "nanoTime"))).and(never(callMethod(System.class, "currentTimeMillis")))));
        add(rules, "`read`, `wait`", server("read", "wait"), packages(RAFT, server("apply", "etcdserver")));
        add(rules, "`apply`", server("apply"), packages(RAFT).or(THREADS));
        add(rules, "`auth`", server("auth"), packages(RAFT, MEMBER, new String[] {"io.grpc.."}, server("config")));
        add(rules, "`mvcc`, `backend`", server("mvcc", "backend"), packages(RAFT).or(REGISTRY));
        add(rules, "`lease`, `membership`, `watch`", server("lease", "membership", "watch"),
                packages(GRPC_AND_HTTP, server("api")).or(REGISTRY));
        add(rules, "`wal`, `snap`, `datadir`", server("wal", "snap", "datadir"), packages(MEMBER).or(REGISTRY));
        add(rules, "`api`, `gateway`", server("api", "gateway"), packages(RAFT, STORAGE,
                server("etcdserver", "embed", "apply", "transport", "lease", "watch", "membership", "read", "wait")));
        add(rules, "`transport`", server("transport"), packages(server("etcdserver", "embed", "api", "gateway", "apply")));
        add(rules, "`compactor`, `metrics`, `version`", server("compactor", "metrics", "version"), packages(MEMBER));
        add(rules, "`config`, `log`, `error`, `tls`", server("config", "log", "error", "tls"),
                packages(MEMBER, STORAGE, RAFT, server("listen"))
                        .or(resideInAPackage(SERVER + "discovery..")
                                .and(DescribedPredicate.not(simpleName("V3DiscoverySettings"))))
                        .as("the member, storage, Raft, listeners, discovery but its settings record"));
        add(rules, "`clock`", server("clock"), allBut("io.etcdj..", SERVER + "clock.."));
        add(rules, "`discovery`", server("discovery"), packages(MEMBER, STORAGE, RAFT, server("config")));
        add(rules, "`bbolt`", server("bbolt"), packages(MEMBER, RAFT).or(REGISTRY));
        add(rules, "`fileutil`, `osutil`", server("fileutil", "osutil"),
                allBut("io.etcdj.server..", server("fileutil", "osutil", "log")));
        add(rules, "`listen`", server("listen"), packages(MEMBER, STORAGE, RAFT));
        add(rules, "`proxy`", server("proxy"), packages(MEMBER, STORAGE, RAFT, server("auth", "lease", "membership", "watch")));
        add(rules, "`slowlog`", server("slowlog"), packages(MEMBER, STORAGE, RAFT));
        return Map.copyOf(rules);
    }

    private static void add(Map<String, ArchRule> rules, String row, String[] packagesOfRow,
                            DescribedPredicate<JavaClass> forbidden) {
        ROWS.put(row, new Row(resideInAnyPackage(packagesOfRow), forbidden));
        rules.put(row, rule(row, packagesOfRow, notDependOn(forbidden)));
    }

    /**
     * The rows {@code origin} breaks by naming {@code target}: for what the bytecode does not show
     * (a constant, which javac copies into the class that reads it).
     */
    static List<String> rowsBrokenBy(JavaClass origin, JavaClass target) {
        return ROWS.entrySet().stream().filter(r -> r.getValue().packages().test(origin) && r.getValue().forbidden().test(target))
                .map(Map.Entry::getKey).toList();
    }

    private record Row(DescribedPredicate<JavaClass> packages, DescribedPredicate<JavaClass> forbidden) {
    }

    /** The row's rule; the test names it after the row with the table's "must not touch" text. */
    private static ArchRule rule(String row, String[] packagesOfRow, ArchCondition<JavaClass> condition) {
        return classes().that().resideInAnyPackage(packagesOfRow).should(condition).as("docs/server.md, row " + row);
    }

    private static ArchCondition<JavaClass> notDependOn(DescribedPredicate<JavaClass> forbidden) {
        return new ArchCondition<>("not depend on " + forbidden.getDescription()) {
            @Override
            public void check(JavaClass origin, ConditionEvents events) {
                for (Dependency d : origin.getDirectDependenciesFromSelf()) {
                    JavaClass target = d.getTargetClass().getBaseComponentType();
                    if (forbidden.test(target)) {
                        events.add(SimpleConditionEvent.violated(d, d.getDescription()));
                    }
                }
            }
        };
    }

    /** The name of the top-level class {@code c} is, or is nested in. */
    private static String outermost(JavaClass c) {
        String name = c.getName();
        int dollar = name.indexOf('$');
        return dollar < 0 ? name : name.substring(0, dollar);
    }

    /** Classes in any of the package patterns of {@code groups}. */
    private static DescribedPredicate<JavaClass> packages(String[]... groups) {
        String[] patterns = Stream.of(groups).flatMap(Stream::of).toArray(String[]::new);
        return resideInAnyPackage(patterns).as(String.join(", ", patterns));
    }

    /** Classes in {@code within} but not in {@code allowed}. */
    private static DescribedPredicate<JavaClass> allBut(String within, String... allowed) {
        return resideInAPackage(within).and(DescribedPredicate.not(resideInAnyPackage(allowed)))
                .as(within + " but " + String.join(", ", allowed));
    }

    private static String[] server(String... names) {
        return Arrays.stream(names).map(n -> SERVER + n + "..").toArray(String[]::new);
    }
}
