package io.etcdj.ctl.printer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveResponse;
import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.api.etcdserverpb.MemberListResponse;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.etcdserverpb.ResponseHeader;
import io.etcdj.api.mvccpb.KeyValue;
import io.etcdj.cli.CliException;
import io.etcdj.cli.GoQuote;
import io.etcdj.format.GoBytes;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PrintersTest {

    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    private final PrintStream stream = new PrintStream(buffer, true, StandardCharsets.UTF_8);

    private Printer printer(String format, boolean hex) {
        return Printers.forFormat(format, new Out(stream), stream, hex, false);
    }

    private String text() {
        return buffer.toString(StandardCharsets.UTF_8);
    }

    private static RangeResponse fooBar() {
        return RangeResponse.newBuilder().setHeader(ResponseHeader.newBuilder().setClusterId(1).setMemberId(2)
                .setRevision(3).setRaftTerm(4)).addKvs(KeyValue.newBuilder().setKey(ByteString.copyFromUtf8("foo"))
                .setValue(ByteString.copyFromUtf8("bar")).setCreateRevision(3).setModRevision(3).setVersion(1))
                .setCount(1).build();
    }

    @Test
    void simpleHexPrintsEscapedBytes() {
        printer("simple", true).get(fooBar());
        assertEquals("\\x66\\x6f\\x6f\n\\x62\\x61\\x72\n", text());
    }

    @Test
    void fieldsQuotesKeysAndValues() {
        printer("fields", false).get(fooBar());
        assertEquals("\"ClusterID\" : 1\n\"MemberID\" : 2\n\"Revision\" : 3\n\"RaftTerm\" : 4\n\"Key\" : \"foo\"\n"
                + "\"CreateRevision\" : 3\n\"ModRevision\" : 3\n\"Version\" : 1\n\"Value\" : \"bar\"\n\"Lease\" : 0\n"
                + "\"More\" : false\n\"Count\" : 1\n", text());
    }

    @Test
    void tableRefusesKeyValueResponses() {
        CliException e = assertThrows(CliException.class, () -> printer("table", false).get(fooBar()));
        assertEquals("table not supported as output format", e.getMessage());
        assertEquals(4, e.exitCode());
    }

    @Test
    void tableDrawsMembers() {
        printer("table", false).memberList(MemberListResponse.newBuilder().addMembers(Member.newBuilder()
                .setID(0x69b38ac7138de88dL).setName("e1").addPeerURLs("http://127.0.0.1:21380")
                .addClientURLs("http://127.0.0.1:21379")).build());
        assertEquals("""
                +------------------+---------+------+------------------------+------------------------+------------+
                |        ID        | STATUS  | NAME |       PEER ADDRS       |      CLIENT ADDRS      | IS LEARNER |
                +------------------+---------+------+------------------------+------------------------+------------+
                | 69b38ac7138de88d | started |   e1 | http://127.0.0.1:21380 | http://127.0.0.1:21379 |      false |
                +------------------+---------+------+------------------------+------------------------+------------+
                """, text());
    }

    @Test
    void timeToLiveListsKeysAndExpiry() {
        printer("simple", false).timeToLive(LeaseTimeToLiveResponse.newBuilder().setID(0x694d5765fc71500bL)
                .setTTL(258).setGrantedTTL(500).addKeys(ByteString.copyFromUtf8("zoo2"))
                .addKeys(ByteString.copyFromUtf8("zoo1")).build(), true);
        printer("simple", false).timeToLive(LeaseTimeToLiveResponse.newBuilder().setID(0x1234).setTTL(-1).build(), false);
        assertEquals("lease 694d5765fc71500b granted with TTL(500s), remaining(258s), attached keys([zoo2 zoo1])\n"
                + "lease 0000000000001234 already expired\n", text());
    }

    @Test
    void humanizesSizesLikeGo() {
        assertEquals("20 kB", GoBytes.format(20480));
        assertEquals("9 B", GoBytes.format(9));
        assertEquals("1.5 MB", GoBytes.format(1_500_000));
    }

    @Test
    void quotesLikeGoPercentQ() {
        assertEquals("\"\\x00\"", GoQuote.quote(new byte[] {0}));
        assertEquals("\"héllo\\n\"", GoQuote.quote("héllo\n".getBytes(StandardCharsets.UTF_8)));
        assertEquals("\"\\xff\"", GoQuote.quote(new byte[] {(byte) 0xff}));
    }

    @Test
    void prefixEndIncrementsLastByte() {
        assertEquals(ByteString.copyFromUtf8("fop"), KeyRanges.prefixEnd(ByteString.copyFromUtf8("foo")));
        assertEquals(KeyRanges.FROM_KEY, KeyRanges.prefixEnd(ByteString.copyFrom(new byte[] {(byte) 0xff})));
    }
}
