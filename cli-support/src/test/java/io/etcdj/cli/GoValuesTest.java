package io.etcdj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class GoValuesTest {

    @Test
    void parsesIntsAndBoolsWithStrconvErrors() {
        assertEquals(0x1234abcdL, GoValues.parseHexId("1234abcd"));
        assertEquals("strconv.ParseInt: parsing \"zz\": invalid syntax",
                assertThrows(IllegalArgumentException.class, () -> GoValues.parseHexId("zz")).getMessage());
        assertEquals("strconv.ParseInt: parsing \"99999999999999999999\": value out of range",
                assertThrows(IllegalArgumentException.class, () -> GoValues.parseInt("99999999999999999999", 10))
                        .getMessage());
        assertEquals(true, GoValues.parseBool("T"));
        assertEquals(false, GoValues.parseBool("0"));
        assertEquals("strconv.ParseBool: parsing \"yes\": invalid syntax",
                assertThrows(IllegalArgumentException.class, () -> GoValues.parseBool("yes")).getMessage());
    }

    @Test
    void parsesUnsignedIntsWithStrconvErrors() {
        assertEquals(5, GoValues.parseUint("5"));
        assertEquals("strconv.ParseUint: parsing \"-1\": invalid syntax",
                assertThrows(IllegalArgumentException.class, () -> GoValues.parseUint("-1")).getMessage());
        assertEquals("strconv.ParseUint: parsing \"99999999999999999999\": value out of range",
                assertThrows(IllegalArgumentException.class, () -> GoValues.parseUint("99999999999999999999")).getMessage());
        assertEquals("strconv.ParseInt: parsing \"++5\": invalid syntax",
                assertThrows(IllegalArgumentException.class, () -> GoValues.parseInt("++5", 10)).getMessage());
    }

    @Test
    void quotesAsGosPercentQ() {
        assertEquals("\"a\\\"b\\\\c\\n\\x01é\"", GoValues.quote("a\"b\\c\n\u0001é"));
        // etcdctl 3.4: invalid argument "\"1s\"" for "--dial-timeout" flag: ...
        assertEquals("invalid argument \"\\\"1s\\\"\" for \"--dial-timeout\" flag: x",
                PflagErrors.invalidArgument("\"1s\"", "--dial-timeout", "x"));
        assertEquals("strconv.ParseBool: parsing \"\\tx\": invalid syntax",
                assertThrows(IllegalArgumentException.class, () -> GoValues.parseBool("\tx")).getMessage());
    }
}
