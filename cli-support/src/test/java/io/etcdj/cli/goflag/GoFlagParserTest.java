package io.etcdj.cli.goflag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The expected texts are what the real etcd 3.4.23 (Go 1.19) prints: its member flags through Go's
 * flag package, {@code etcd gateway start} and {@code etcd grpc-proxy start} through cobra and pflag.
 */
class GoFlagParserTest {

    private static final Map<String, FlagKind> ETCD = Map.of("name", FlagKind.STRING, "snapshot-count", FlagKind.UINT,
            "quota-backend-bytes", FlagKind.INT, "version", FlagKind.BOOL, "grpc-keepalive-interval", FlagKind.DURATION,
            "snapshot", FlagKind.IGNORED, "experimental-compact-hash-check-ratio", FlagKind.FLOAT);
    private static final Map<String, FlagKind> GATEWAY = Map.of("listen-addr", FlagKind.STRING,
            "endpoints", FlagKind.STRINGS, "retry-delay", FlagKind.DURATION, "insecure-discovery", FlagKind.BOOL,
            "max-concurrent-streams", FlagKind.UINT32);

    private static GoFlagParser.Result etcd(String... args) throws FlagException {
        return new GoFlagParser(FlagSyntax.GO_FLAG, ETCD::get).parse(List.of(args));
    }

    private static GoFlagParser.Result gateway(String... args) throws FlagException {
        return new GoFlagParser(FlagSyntax.PFLAG, GATEWAY::get).parse(List.of(args));
    }

    private static String etcdError(String... args) {
        return assertThrows(FlagException.class, () -> etcd(args)).getMessage();
    }

    private static String gatewayError(String... args) {
        return assertThrows(FlagException.class, () -> gateway(args)).getMessage();
    }

    @Test
    void goFlagTakesOneOrTwoDashesAValueAfterEqualsOrAsTheNextWord() throws FlagException {
        GoFlagParser.Result r = etcd("-name", "a", "--snapshot-count=0x10", "--version", "-grpc-keepalive-interval=+1m",
                "--name=b");
        assertEquals(List.of("name", "snapshot-count", "version", "grpc-keepalive-interval", "name"),
                r.settings().stream().map(GoFlagParser.Setting::name).toList());
        assertEquals(16L, r.settings().get(1).value()); // strconv base 0, as etcd 3.4 takes --snapshot-count=0x10
        assertEquals(true, r.settings().get(2).value());
        assertEquals(Duration.ofMinutes(1), r.settings().get(3).value());
        assertEquals("b", r.settings().get(4).text());
        assertFalse(r.help());
    }

    @Test
    void goFlagStopsAtTheFirstWordThatIsNotAFlag() throws FlagException {
        assertEquals(List.of("x", "--name=a"), etcd("--version", "x", "--name=a").positional());
        assertEquals(List.of("x"), etcd("--", "x").positional());
        assertEquals(List.of(), etcd("--").positional()); // etcd -- starts a member
        assertEquals(List.of("-"), etcd("-").positional());
    }

    @Test
    void goFlagErrorsAreEtcds() {
        assertEquals("flag provided but not defined: -bogus", etcdError("--version", "--bogus"));
        assertEquals("flag provided but not defined: -x", etcdError("-x"));
        assertEquals("flag needs an argument: -name", etcdError("--name"));
        assertEquals("bad flag syntax: ---x", etcdError("---x"));
        assertEquals("bad flag syntax: -=x", etcdError("-=x"));
        assertEquals("invalid boolean value \"maybe\" for -version: parse error", etcdError("-version=maybe"));
        assertEquals("invalid value \"99999999999999999999\" for flag -snapshot-count: value out of range",
                etcdError("--snapshot-count=99999999999999999999"));
        assertEquals("invalid value \"-1\" for flag -snapshot-count: parse error", etcdError("--snapshot-count=-1"));
        assertEquals("invalid value \"x\\\"é\" for flag -snapshot-count: parse error", etcdError("--snapshot-count", "x\"é"));
        assertEquals("invalid value \"10\" for flag -grpc-keepalive-interval: parse error",
                etcdError("--grpc-keepalive-interval=10"));
        assertEquals("invalid value \"1e3x\" for flag -experimental-compact-hash-check-ratio: parse error",
                etcdError("--experimental-compact-hash-check-ratio=1e3x"));
    }

    @Test
    void goFlagHelpEndsTheParseWhereItStands() throws FlagException {
        assertTrue(etcd("--help", "--bogus").help());
        assertTrue(etcd("-h").help());
        assertTrue(etcd("-help").help());
        assertEquals("flag provided but not defined: -bogus", etcdError("--bogus", "--help"));
    }

    @Test
    void anIgnoredFlagTakesAnyValueButNoValueWord() throws FlagException {
        GoFlagParser.Result r = etcd("-snapshot=yes", "--snapshot", "x");
        assertEquals(List.of("yes", "true"), r.settings().stream().map(GoFlagParser.Setting::text).toList());
        assertEquals(List.of("x"), r.positional()); // etcd: "error verifying flags, 'x' is not a valid flag"
    }

    @Test
    void pflagMixesFlagsAndWordsAndReadsOnAfterHelp() throws FlagException {
        GoFlagParser.Result r = gateway("start", "--listen-addr", "127.0.0.1:1", "--insecure-discovery",
                "--endpoints=a,b", "--help", "more", "--", "--retry-delay");
        assertEquals(List.of("start", "more", "--retry-delay"), r.positional());
        assertEquals(List.of("listen-addr", "insecure-discovery", "endpoints"),
                r.settings().stream().map(GoFlagParser.Setting::name).toList());
        assertEquals("a,b", r.settings().get(2).value());
        assertTrue(r.help());
        assertTrue(gateway("-h").help());
    }

    @Test
    void pflagErrorsAreCobras() {
        assertEquals("unknown flag: --dial-timeout", gatewayError("--dial-timeout=x"));
        assertEquals("unknown flag: --bogus", gatewayError("--help", "--bogus"));
        assertEquals("unknown shorthand flag: 'x' in -xy", gatewayError("-xy"));
        assertEquals("flag needs an argument: --listen-addr", gatewayError("--listen-addr"));
        assertEquals("bad flag syntax: ---x", gatewayError("---x"));
        assertEquals("invalid argument \"x\" for \"--retry-delay\" flag: time: invalid duration \"x\"",
                gatewayError("--retry-delay=x"));
        assertEquals("invalid argument \"2x\" for \"--retry-delay\" flag: time: unknown unit \"x\" in duration \"2x\"",
                gatewayError("--retry-delay", "2x"));
        assertEquals("invalid argument \"maybe\" for \"--insecure-discovery\" flag: "
                + "strconv.ParseBool: parsing \"maybe\": invalid syntax", gatewayError("--insecure-discovery=maybe"));
        assertEquals("invalid argument \"4294967296\" for \"--max-concurrent-streams\" flag: "
                + "strconv.ParseUint: parsing \"4294967296\": value out of range", gatewayError("--max-concurrent-streams=4294967296"));
        assertEquals("invalid argument \"-1\" for \"--max-concurrent-streams\" flag: "
                + "strconv.ParseUint: parsing \"-1\": invalid syntax", gatewayError("--max-concurrent-streams=-1"));
    }

    @Test
    void valueKindsParseAsStrconvDoes() {
        assertEquals(-255L, FlagKind.INT.parse("-0xff"));
        assertEquals(8L, FlagKind.INT.parse("010"));
        assertEquals(-1L, FlagKind.UINT.parse("18446744073709551615"));
        assertEquals(0.5, FlagKind.FLOAT.parse(".5"));
        assertEquals(1000.0, FlagKind.FLOAT.parse("1e3"));
        assertEquals(Double.POSITIVE_INFINITY, FlagKind.FLOAT.parse("+Inf"));
        assertEquals("strconv.ParseFloat: parsing \"1d\": invalid syntax",
                assertThrows(IllegalArgumentException.class, () -> FlagKind.FLOAT.parse("1d")).getMessage());
        assertEquals("strconv.ParseFloat: parsing \" 1\": invalid syntax",
                assertThrows(IllegalArgumentException.class, () -> FlagKind.FLOAT.parse(" 1")).getMessage());
        assertEquals("strconv.ParseFloat: parsing \"1e400\": value out of range",
                assertThrows(IllegalArgumentException.class, () -> FlagKind.FLOAT.parse("1e400")).getMessage());
        assertEquals("strconv.ParseUint: parsing \"18446744073709551616\": value out of range",
                assertThrows(IllegalArgumentException.class, () -> FlagKind.UINT.parse("18446744073709551616")).getMessage());
    }
}
