package io.etcdj.robustness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.etcdj.robustness.Op.Kind;
import io.etcdj.robustness.Op.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistoryFileTest {
    @Test
    void aKeptHistoryReadsBackAsItWasRecorded(@TempDir Path dir) throws Exception {
        List<Op> ops = List.of(
                new Op(0, 1, "r/k0", Kind.WRITE, "c1-0", null, 10, 20, Outcome.OK, 5, "m1"),
                new Op(1, 2, "r/k0", Kind.READ, null, null, 30, 40, Outcome.OK, 5, "m2"),
                new Op(2, 3, "r/k1", Kind.CAS, "c3-1", null, 50, Long.MAX_VALUE, Outcome.UNKNOWN, 0, "m3"),
                new Op(3, -1, "r/k1", Kind.CAS, "c3-2", "c1-0", 60, 70, Outcome.FAILED, 6, "m1"));
        Path f = dir.resolve("history.txt");
        Files.write(f, Stream.concat(Stream.of("# a summary line"),
                ops.stream().map(Op::toString)).toList());
        assertEquals(ops, HistoryFile.read(f));
    }
}
