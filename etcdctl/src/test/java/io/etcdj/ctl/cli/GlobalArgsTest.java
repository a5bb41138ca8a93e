package io.etcdj.ctl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.cli.CliException;
import io.etcdj.cli.ExitCodes;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GlobalArgsTest {

    @Test
    void takesGlobalFlagsFromAnywhereBeforeDoubleDash() {
        GlobalArgs g = GlobalArgs.split(new String[] {"get", "--hex", "k", "-w", "json", "--endpoints=a:1,b:2",
            "--dial-timeout", "3s", "--", "--hex"});
        assertNull(g.flagError());
        assertEquals(List.of("get", "k", "--", "--hex"), g.rest());
        assertTrue(g.options().hex());
        assertEquals("json", g.options().writeOut());
        assertEquals(List.of("a:1", "b:2"), g.options().endpoints());
        assertEquals(Duration.ofSeconds(3), g.options().dialTimeout());
    }

    @Test
    void reportsPflagErrors() {
        assertEquals("invalid argument \"xx\" for \"--dial-timeout\" flag: time: invalid duration \"xx\"",
                GlobalArgs.split(new String[] {"--dial-timeout=xx", "get"}).flagError());
        assertEquals("flag needs an argument: 'w' in -w", GlobalArgs.split(new String[] {"-w"}).flagError());
        assertEquals("invalid argument \"x\" for \"--hex\" flag: strconv.ParseBool: parsing \"x\": invalid syntax",
                GlobalArgs.split(new String[] {"--hex=x"}).flagError());
    }

    @Test
    void environmentFillsFlagsNotGiven() {
        GlobalArgs g = GlobalArgs.split(new String[] {"get", "k"});
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        g.applyEnvironment(Map.of("ETCDCTL_WRITE_OUT", "fields", "ETCDCTL_API", "3", "ETCDCTL_FOO", "1"),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals("fields", g.options().writeOut());
        assertTrue(err.toString(StandardCharsets.UTF_8).endsWith(" W | pkg/flags: unrecognized environment variable ETCDCTL_FOO=1\n"));
    }

    @Test
    void environmentShadowedByFlagIsFatal() {
        GlobalArgs g = GlobalArgs.split(new String[] {"--hex", "get", "k"});
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CliException e = assertThrows(CliException.class, () -> g.applyEnvironment(Map.of("ETCDCTL_HEX", "true"),
                new PrintStream(err, true, StandardCharsets.UTF_8)));
        assertEquals(ExitCodes.ERROR, e.exitCode());
        assertTrue(err.toString(StandardCharsets.UTF_8).contains(" C | pkg/flags: conflicting environment variable "
                + "\"ETCDCTL_HEX\" is shadowed by corresponding command-line flag (either unset environment variable or disable flag)"));
    }
}
