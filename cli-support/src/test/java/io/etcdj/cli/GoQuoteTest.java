package io.etcdj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Expected values are what Go's strconv.Quote returns for the same input. */
class GoQuoteTest {

    @Test
    void quotesTextAsStrconvQuote() {
        assertEquals("\"a \\\"b\\\" \\\\ c\"", GoQuote.quote("a \"b\" \\ c"));
        assertEquals("\"\\a\\b\\f\\n\\r\\t\\v\\x00\\x7f\"", GoQuote.quote("\u0007\b\f\n\r\t\u000b\u0000\u007f"));
        assertEquals("\"été 日本\"", GoQuote.quote("été 日本"));
        // not printable for Go: a no-break space, a zero-width space, a private-use rune
        assertEquals("\"\\u00a0\\u200b\\ue000\"", GoQuote.quote("\u00a0\u200b\ue000"));
        assertEquals("\"\\U000e0001\"", GoQuote.quote(new String(Character.toChars(0xe0001))));
    }

    @Test
    void quotesBytesThatAreNotUtf8OneByOne() {
        assertEquals("\"a\\xffb\\xc3\"", GoQuote.quote(new byte[] {'a', (byte) 0xff, 'b', (byte) 0xc3}));
        assertEquals("\"é\"", GoQuote.quote("é".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void goValuesQuotesThroughTheSameCode() {
        assertEquals(GoQuote.quote("x\u00a0y"), GoValues.quote("x\u00a0y"));
    }
}
