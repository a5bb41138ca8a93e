package io.etcdj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Global flags anywhere before "--", in every form pflag accepts, with pflag's errors. */
class PersistentFlagsTest {

    private static final GlobalFlag WRITE_OUT = new GlobalFlag("write-out", "w", GlobalFlag.Kind.STRING, "simple", "");
    private static final GlobalFlag HEX = new GlobalFlag("hex", null, GlobalFlag.Kind.BOOL, "false", "");
    private static final GlobalFlag DEBUG = new GlobalFlag("debug", null, GlobalFlag.Kind.BOOL, "false", "");

    private final List<String> set = new ArrayList<>();

    private PersistentFlags split(String... args) {
        return PersistentFlags.split(args, List.of(WRITE_OUT, HEX, DEBUG), (f, v) -> {
            if (f.kind() == GlobalFlag.Kind.BOOL) {
                GoValues.parseBool(v);
            }
            set.add(f.name() + "=" + v);
        });
    }

    @Test
    void takesGlobalFlagsFromAnywhereBeforeTheDoubleDash() {
        PersistentFlags p = split("get", "-w", "json", "k", "--hex", "-wtable", "--write-out=fields", "-w=simple", "--",
                "-w", "x");
        assertEquals(List.of("get", "k", "--", "-w", "x"), p.rest());
        assertEquals(List.of("write-out=json", "hex=true", "write-out=table", "write-out=fields", "write-out=simple"), set);
        assertEquals(List.of("-w", "json", "--hex", "-wtable", "--write-out=fields", "-w=simple"), p.consumed());
        assertNull(p.error());
    }

    @Test
    void leavesOtherFlagsAndALoneDashForTheCommand() {
        PersistentFlags p = split("put", "-", "--prefix", "-x");
        assertEquals(List.of("put", "-", "--prefix", "-x"), p.rest());
    }

    @Test
    void firstErrorInPflagsWords() {
        assertEquals("flag needs an argument: 'w' in -w", split("get", "-w").error());
        assertEquals("flag needs an argument: --write-out", split("--write-out").error());
        assertEquals("invalid argument \"x\" for \"--hex\" flag: strconv.ParseBool: parsing \"x\": invalid syntax",
                split("--hex=x", "--debug=y").error());
    }
}
