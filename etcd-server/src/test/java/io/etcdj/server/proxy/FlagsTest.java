package io.etcdj.server.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** pflag's parsing rules and texts as the proxy commands need them. */
class FlagsTest {
    private static Flags flags() {
        return new Flags().string("listen-addr", "127.0.0.1:23790", "listen address")
                .strings("endpoints", List.of("127.0.0.1:2379"), "comma separated etcd cluster endpoints")
                .duration("retry-delay", Duration.ofMinutes(1), "retry")
                .bool("insecure-discovery", "accept insecure SRV records");
    }

    @Test
    void valuesInBothSpellingsAndListsReplaceThenAppend() throws Exception {
        Flags f = flags();
        f.parse(List.of("--listen-addr", "a:1", "--endpoints=x:1,y:2", "--endpoints", "z:3", "--insecure-discovery",
                "--retry-delay=1m30s", "extra"));
        assertEquals("a:1", f.getString("listen-addr"));
        assertEquals(List.of("x:1", "y:2", "z:3"), f.getStrings("endpoints"));
        assertEquals(Duration.ofSeconds(90), f.getDuration("retry-delay"));
        assertTrue(f.getBool("insecure-discovery"));
        assertTrue(f.changed("endpoints"));
        assertEquals(List.of("extra"), f.positional());
    }

    @Test
    void defaultsStayUntilSet() throws Exception {
        Flags f = flags();
        f.parse(List.of());
        assertEquals(List.of("127.0.0.1:2379"), f.getStrings("endpoints"));
        assertEquals(Duration.ofMinutes(1), f.getDuration("retry-delay"));
    }

    @Test
    void errorsUsePflagsTexts() {
        assertEquals("unknown flag: --nope", assertThrows(UsageException.class,
                () -> flags().parse(List.of("--nope=1"))).getMessage());
        assertEquals("unknown shorthand flag: 'x' in -x", assertThrows(UsageException.class,
                () -> flags().parse(List.of("-x"))).getMessage());
        assertEquals("flag needs an argument: --listen-addr", assertThrows(UsageException.class,
                () -> flags().parse(List.of("--listen-addr"))).getMessage());
        assertEquals("invalid argument \"2x\" for \"--retry-delay\" flag: time: unknown unit \"x\" in duration \"2x\"",
                assertThrows(UsageException.class, () -> flags().parse(List.of("--retry-delay=2x"))).getMessage());
    }

    @Test
    void usageAlignsColumnsAndShowsDefaults() {
        assertEquals("""
                      --endpoints strings      comma separated etcd cluster endpoints (default [127.0.0.1:2379])
                  -h, --help                   help for start
                      --insecure-discovery     accept insecure SRV records
                      --listen-addr string     listen address (default "127.0.0.1:23790")
                      --retry-delay duration   retry (default 1m0s)
                """, flags().usages("start"));
    }

}
