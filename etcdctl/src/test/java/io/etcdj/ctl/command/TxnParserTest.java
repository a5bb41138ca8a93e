package io.etcdj.ctl.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.etcdj.api.etcdserverpb.Compare;
import io.etcdj.api.etcdserverpb.RequestOp;
import io.etcdj.cli.CliException;
import java.util.List;
import org.junit.jupiter.api.Test;

class TxnParserTest {

    @Test
    void parsesCompares() {
        Compare c = TxnParser.compare("mod(\"k\") > \"3\"");
        assertEquals(Compare.CompareTarget.MOD, c.getTarget());
        assertEquals(Compare.CompareResult.GREATER, c.getResult());
        assertEquals(3, c.getModRevision());
        Compare v = TxnParser.compare("value(\"k\") != \"a b\"");
        assertEquals("a b", v.getValue().toStringUtf8());
        assertEquals(Compare.CompareResult.NOT_EQUAL, v.getResult());
    }

    @Test
    void rejectsMalformedCompares() {
        CliException e = assertThrows(CliException.class, () -> TxnParser.compare("bogus"));
        assertEquals("malformed comparison: bogus", e.getMessage());
        assertEquals(3, e.exitCode());
    }

    @Test
    void parsesRequestsWithCommandFlags() {
        RequestOp get = TxnParser.request("get k --prefix");
        assertEquals("l", get.getRequestRange().getRangeEnd().toStringUtf8());
        RequestOp put = TxnParser.request("put k \"two words\"");
        assertEquals("two words", put.getRequestPut().getValue().toStringUtf8());
        assertEquals(List.of("put", "a b", "c"), TxnParser.split("put 'a b' c"));
    }

    /** etcd's e2e TestCtlV3TxnInteractiveSuccess: a key with escaped quotes and a '#' in the value. */
    @Test
    void readsDoubleQuotedWordsAsGoStrings() {
        RequestOp put = TxnParser.request("put \"key \\\"with\\\" space\" \"value \\x23\"");
        assertEquals("key \"with\" space", put.getRequestPut().getKey().toStringUtf8());
        assertEquals("value #", put.getRequestPut().getValue().toStringUtf8());
        RequestOp get = TxnParser.request("get \"key \\\"with\\\" space\"");
        assertEquals("key \"with\" space", get.getRequestRange().getKey().toStringUtf8());
        assertEquals(List.of("put", "a\"b", "c"), TxnParser.split("put a\"b c"));
        CliException e = assertThrows(CliException.class, () -> TxnParser.request("put \"bad \\q\" v"));
        assertEquals(3, e.exitCode());
    }
}
