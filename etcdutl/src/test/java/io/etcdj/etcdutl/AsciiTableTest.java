package io.etcdj.etcdutl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class AsciiTableTest {
    @Test
    void layoutOfEtcdSnapshotStatusTable() {
        // the layout etcd printed for `snapshot status -w table`, with 3.6's version column
        String expected = """
                +----------+----------+------------+------------+---------+
                |   HASH   | REVISION | TOTAL KEYS | TOTAL SIZE | VERSION |
                +----------+----------+------------+------------+---------+
                | e167df58 |        5 |          8 |      20 kB |   3.6.0 |
                +----------+----------+------------+------------+---------+
                """;
        String actual = new AsciiTable(List.of("hash", "revision", "total keys", "total size", "version"))
                .row(List.of("e167df58", "5", "8", "20 kB", "3.6.0")).render();
        assertEquals(expected, actual);
    }

    @Test
    void oddGapPutsTheExtraSpaceRightOfAHeader() {
        String actual = new AsciiTable(List.of("ab")).row(List.of("12345")).render();
        assertEquals("+-------+\n|  AB   |\n+-------+\n| 12345 |\n+-------+\n", actual);
    }
}
