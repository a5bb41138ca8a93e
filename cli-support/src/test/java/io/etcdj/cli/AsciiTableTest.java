package io.etcdj.cli;

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
        String actual = AsciiTable.render(new String[] {"HASH", "REVISION", "TOTAL KEYS", "TOTAL SIZE", "VERSION"},
                List.of(List.of("e167df58", "5", "8", "20 kB", "3.6.0")));
        assertEquals(expected, actual);
    }

    @Test
    void oddGapPutsTheExtraSpaceRightOfAHeader() {
        String actual = AsciiTable.render(new String[] {"AB"}, List.of(List.of("12345")));
        assertEquals("+-------+\n|  AB   |\n+-------+\n| 12345 |\n+-------+\n", actual);
    }

    @Test
    void widthsCountCodePointsNotUtf16Units() {
        String actual = AsciiTable.render(new String[] {"KEY"}, List.of(List.of("\uD83D\uDE00")));
        assertEquals("+-----+\n| KEY |\n+-----+\n|   \uD83D\uDE00 |\n+-----+\n", actual);
    }
}
