package io.etcdj.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * etcd's ignored legacy flags (config.go's "ignored" list, unchanged 3.4 to 3.6): accepted and
 * ignored with etcd's warning, as Go bool flags; etcd 3.4 refuses the other 2.x names
 * (--peer-addr, --peer-bind-addr, --peer-ca-file), and so do we.
 */
class LegacyFlagsTest {

    @Test
    void everyIgnoredFlagIsAcceptedWithEtcdsWarning() throws Exception {
        for (String name : FlagParser.IGNORED) {
            FlagParser.Parsed bare = FlagParser.parse(new String[] {"--" + name, "--name=n"}, Map.of());
            assertEquals("n", bare.values().get("name"), name);
            assertEquals(List.of("flag \"-" + name + "\" is no longer supported - ignoring."), bare.warnings());
            FlagParser.Parsed valued = FlagParser.parse(new String[] {"-" + name + "=anything"}, Map.of());
            assertTrue(valued.values().isEmpty(), name);
        }
        ServerConfig.from(FlagParser.parse(new String[] {"--config", "--force", "-v", "--snapshot=true"}, Map.of()).values());
    }

    @Test
    void aLegacyFlagTakesNoValueWord() {
        // a bool flag in Go: the next word is a stray argument, which etcd refuses
        ConfigException e = assertThrows(ConfigException.class,
                () -> FlagParser.parse(new String[] {"--config", "etcd.conf"}, Map.of()));
        assertEquals("error verifying flags, 'etcd.conf' is not a valid flag. See 'etcd --help'.", e.getMessage());
    }

    @Test
    void otherTwoXNamesStayUndefined() {
        for (String name : List.of("peer-addr", "peer-bind-addr", "peer-ca-file", "addr", "bind-addr", "ca-file")) {
            ConfigException e = assertThrows(ConfigException.class,
                    () -> FlagParser.parse(new String[] {"--" + name + "=1"}, Map.of()));
            assertEquals("flag provided but not defined: -" + name, e.getMessage());
        }
    }

    @Test
    void theEnvironmentsLegacyVariablesAreIgnoredTooNotUnrecognized() throws Exception {
        FlagParser.Parsed p = FlagParser.parse(new String[0], Map.of("ETCD_FORCE", "1"));
        assertEquals(List.of(), p.envUnrecognized());
        assertEquals(List.of("flag \"-force\" is no longer supported - ignoring."), p.warnings());
    }
}
