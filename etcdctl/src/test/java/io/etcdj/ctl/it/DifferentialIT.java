package io.etcdj.ctl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the differential script ({@link DifferentialSteps}) in a pipe against twin etcd servers, the
 * real etcdctl on one and ours on the other, and requires identical stdout, stderr and exit code
 * after normalising IDs, ports and timestamps. {@link TerminalScriptIT} runs the same script at a
 * terminal.
 */
@ExtendWith(TwinEtcdExtension.class)
class DifferentialIT {

    private static final Path SNAPSHOT = Path.of(System.getProperty("java.io.tmpdir"),
            "etcdctl-it-" + ProcessHandle.current().pid() + ".db");

    private String referenceLease = "0";
    private String ourLease = "0";

    @AfterAll
    static void deleteSnapshot() throws IOException {
        Files.deleteIfExists(SNAPSHOT);
    }

    @TestFactory
    Stream<DynamicTest> sameOutputAsRealEtcdctl(TwinEtcdExtension.Twins twins) {
        Differ differ = new Differ(twins);
        return DifferentialSteps.script(SNAPSHOT).stream().map(step -> DynamicTest.dynamicTest(step.name(), () -> {
            Differ.Result expected = differ.reference(step.stdin(), step.inputStaysOpen(), step.env(),
                    DifferentialSteps.substitute(step.args(), referenceLease));
            Differ.Result actual = DifferentialSteps.without35And36FlagLines(step,
                    differ.ours(step.stdin(), step.inputStaysOpen(), step.env(), DifferentialSteps.substitute(step.args(), ourLease)));
            referenceLease = DifferentialSteps.lease(expected, referenceLease);
            ourLease = DifferentialSteps.lease(actual, ourLease);
            if (DifferentialSteps.snapshotFromSeveralEndpoints(step, expected, actual)) {
                return;
            }
            if (step.protobuf() && expected.code() == 0) {
                String want = DifferentialSteps.decoded(step, expected);
                Assertions.assertTrue(want.contains("header {"), want);
                assertEquals(want, DifferentialSteps.decoded(step, actual));
                assertEquals(expected.err(), actual.err());
                return;
            }
            assertEquals(Differ.normalise(expected, twins.reference()).toString(),
                    Differ.normalise(actual, twins.ours()).toString());
        }));
    }
}
