package io.etcdj.server.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * No process-wide mutable state in the member: several members run in one JVM (the in-JVM test
 * cluster, the embedded clusters of etcd-embedded), so whatever changes while a member runs (its
 * metrics, failpoints, log sink, event loops, caches) belongs to an object the member owns and is
 * handed on through constructors (docs/CONCURRENCY.md, "What a member owns"). This fails on a static
 * field that is not final, or final but of a type that changes (collections built mutable,
 * atomics, registries and metrics, executors and event loops, streams). Constants stay static:
 * immutable values, {@code List.of}/{@code Map.of} collections, loggers' names. What is left in
 * {@link #ALLOWED} says why. The gRPC proxy ({@code proxy}) is a process of its own and not
 * checked.
 */
class NoProcessWideStateTest {
    private static final JavaClasses MEMBER = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.etcdj.server");

    /** Static state that stays, each with its reason. */
    private static final Set<String> ALLOWED = Set.of(
            // the process's log sink, set by the etcd command's flags (--log-outputs, --log-level,
            // --log-format): lines of code outside any member (see theMembersClassesLogToTheirMembersSink)
            "io.etcdj.server.log.Log.process",
            // Java Flight Recorder is one per JVM: recordings asked of any member run one after another
            "io.etcdj.server.gateway.JvmDebug.RECORDER",
            // each thread's native scratch buffers for LMDB calls: no data outlives the call
            "io.etcdj.server.backend.PinnedByteArrays.SLOTS_OF_THREAD");

    /** Types whose instances change after they are made. */
    private static final List<String> MUTABLE_TYPES = List.of(
            "java.util.HashMap", "java.util.LinkedHashMap", "java.util.TreeMap", "java.util.EnumMap", "java.util.ArrayList",
            "java.util.LinkedList", "java.util.HashSet", "java.util.LinkedHashSet", "java.util.TreeSet", "java.util.ArrayDeque",
            "java.util.concurrent.ConcurrentMap", "java.util.concurrent.BlockingQueue", "java.util.concurrent.ConcurrentLinkedQueue",
            "java.util.concurrent.CopyOnWriteArrayList", "java.util.concurrent.ConcurrentSkipListMap",
            "java.util.concurrent.atomic.AtomicBoolean", "java.util.concurrent.atomic.AtomicInteger",
            "java.util.concurrent.atomic.AtomicLong", "java.util.concurrent.atomic.AtomicReference",
            "java.util.concurrent.atomic.LongAdder", "java.util.concurrent.Executor", "java.lang.ThreadLocal",
            "java.io.OutputStream", "java.io.PrintStream", "java.io.Writer",
            "io.netty.channel.EventLoopGroup", "io.prometheus.metrics.model.registry.PrometheusRegistry",
            "io.prometheus.metrics.core.metrics.Metric", "io.etcdj.server.metrics.Metrics");
    /** Constructors that make a collection which can change. */
    private static final List<String> MUTABLE_COLLECTIONS = MUTABLE_TYPES.subList(0, 15);

    @Test
    void theMemberKeepsNoMutableStateInStaticFields() {
        fields().that().areStatic().and(DescribedPredicate.describe("not allowed", f -> !ALLOWED.contains(name(f))))
                .and().areDeclaredInClassesThat().resideOutsideOfPackage("io.etcdj.server.proxy..")
                .should(new ArchCondition<JavaField>("be constants (final, of a type that does not change)") {
                    @Override
                    public void check(JavaField f, ConditionEvents events) {
                        String why = mutability(f);
                        if (why != null) {
                            events.add(SimpleConditionEvent.violated(f, name(f) + " is process-wide state: " + why));
                        }
                    }
                })
                .allowEmptyShould(true)
                .check(MEMBER);
    }

    /**
     * A member's classes log through loggers of the member's sink ({@code LogSink.logger}), never
     * through {@code Log.get}, which writes to the process's sink: two members in one JVM each
     * write where they were told. Outside any member: the command ({@code Main}), configuration and
     * discovery (before a member exists), the proxies (processes of their own) and the log package.
     */
    @Test
    void theMembersClassesLogToTheirMembersSink() {
        ArchRuleDefinition.noClasses()
                .that().resideOutsideOfPackages("io.etcdj.server.config..", "io.etcdj.server.discovery..",
                        "io.etcdj.server.proxy..", "io.etcdj.server.log..")
                .and().doNotHaveFullyQualifiedName("io.etcdj.server.Main")
                .should().callMethod("io.etcdj.server.log.Log", "get", "java.lang.String")
                .because("a member's lines go to its own sink (MemberContext.logs)")
                .check(MEMBER);
    }

    private static String mutability(JavaField f) {
        if (!f.getModifiers().contains(JavaModifier.FINAL)) {
            return "a static field that is not final";
        }
        for (String type : MUTABLE_TYPES) {
            if (f.getRawType().isAssignableTo(type)) {
                return "of type " + f.getRawType().getSimpleName() + ", which changes";
            }
        }
        if (f.getRawType().isAssignableTo(Collection.class) || f.getRawType().isAssignableTo(Map.class)) {
            JavaClass owner = f.getOwner();
            boolean builtMutable = owner.getStaticInitializer().map(init -> init.getConstructorCallsFromSelf().stream()
                    .anyMatch(c -> MUTABLE_COLLECTIONS.contains(c.getTargetOwner().getName()))
                    || init.getMethodCallsFromSelf().stream().anyMatch(c -> c.getName().equals("newKeySet")))
                    .orElse(false);
            if (builtMutable) {
                return "a collection its class builds mutable (use List.of, Map.of, Set.copyOf...)";
            }
        }
        return null;
    }

    private static String name(JavaField f) {
        return f.getOwner().getName() + "." + f.getName();
    }
}
