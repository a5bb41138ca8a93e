package io.etcdj.ctl.cli;

import io.etcdj.cli.GlobalFlag;
import io.etcdj.cli.GoDuration;
import io.etcdj.cli.GoValues;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Values of etcdctl's global flags. Parsed out of the arguments (and ETCDCTL_* variables) before the
 * command line reaches picocli, because pflag lets them appear anywhere and reports their errors in
 * its own words.
 */
public final class GlobalOptions {

    /** The flags in the order etcdctl's help lists them (alphabetical by long name). */
    public static final List<GlobalFlag> FLAGS = List.of(
            new GlobalFlag("cacert", null, GlobalFlag.Kind.STRING, "",
                    "verify certificates of TLS-enabled secure servers using this CA bundle"),
            new GlobalFlag("cert", null, GlobalFlag.Kind.STRING, "",
                    "identify secure client using this TLS certificate file"),
            new GlobalFlag("command-timeout", null, GlobalFlag.Kind.DURATION, "5s",
                    "timeout for short running command (excluding dial timeout)"),
            new GlobalFlag("debug", null, GlobalFlag.Kind.BOOL, "false", "enable client-side debug logging"),
            new GlobalFlag("dial-timeout", null, GlobalFlag.Kind.DURATION, "2s", "dial timeout for client connections"),
            new GlobalFlag("discovery-srv", "d", GlobalFlag.Kind.STRING, "",
                    "domain name to query for SRV records describing cluster endpoints"),
            new GlobalFlag("discovery-srv-name", null, GlobalFlag.Kind.STRING, "",
                    "service name to query when using DNS discovery"),
            new GlobalFlag("endpoints", null, GlobalFlag.Kind.STRING_LIST, "127.0.0.1:2379", "gRPC endpoints"),
            new GlobalFlag("hex", null, GlobalFlag.Kind.BOOL, "false", "print byte strings as hex encoded strings"),
            new GlobalFlag("insecure-discovery", null, GlobalFlag.Kind.BOOL, "true",
                    "accept insecure SRV records describing cluster endpoints"),
            new GlobalFlag("insecure-skip-tls-verify", null, GlobalFlag.Kind.BOOL, "false",
                    "skip server certificate verification (CAUTION: this option should be enabled only for testing purposes)"),
            new GlobalFlag("insecure-transport", null, GlobalFlag.Kind.BOOL, "true",
                    "disable transport security for client connections"),
            new GlobalFlag("keepalive-time", null, GlobalFlag.Kind.DURATION, "2s", "keepalive time for client connections"),
            new GlobalFlag("keepalive-timeout", null, GlobalFlag.Kind.DURATION, "6s",
                    "keepalive timeout for client connections"),
            new GlobalFlag("key", null, GlobalFlag.Kind.STRING, "", "identify secure client using this TLS key file"),
            new GlobalFlag("max-recv-bytes", null, GlobalFlag.Kind.INT, "0",
                    "client-side response receive limit in bytes (if 0, it defaults to \"math.MaxInt32\")"),
            new GlobalFlag("max-request-bytes", null, GlobalFlag.Kind.INT, "0",
                    "client-side request send limit in bytes (if 0, it defaults to 2.0 MiB (2 * 1024 * 1024).)"),
            new GlobalFlag("password", null, GlobalFlag.Kind.STRING, "",
                    "password for authentication (if this option is used, --user option shouldn't include password)"),
            new GlobalFlag("user", null, GlobalFlag.Kind.STRING, "",
                    "username[:password] for authentication (prompt if password is not supplied)"),
            new GlobalFlag("write-out", "w", GlobalFlag.Kind.STRING, "simple",
                    "set the output format (fields, json, protobuf, simple, table)"));

    private final Map<String, Object> values = new HashMap<>();
    private final Set<String> listSetOnce = new HashSet<>();

    public GlobalOptions() {
        for (GlobalFlag f : FLAGS) {
            values.put(f.name(), parse(f, f.defaultText(), true));
        }
    }

    /**
     * Sets a flag from text. String lists behave like pflag's: the first value replaces the default,
     * later ones append.
     *
     * @throws IllegalArgumentException with Go's parse error text
     */
    @SuppressWarnings("unchecked")
    public void set(GlobalFlag f, String text) {
        Object v = parse(f, text, false);
        if (f.kind() == GlobalFlag.Kind.STRING_LIST && listSetOnce.contains(f.name())) {
            ((List<String>) values.get(f.name())).addAll((List<String>) v);
        } else {
            values.put(f.name(), v);
        }
        if (f.kind() == GlobalFlag.Kind.STRING_LIST) {
            listSetOnce.add(f.name());
        }
    }

    private static Object parse(GlobalFlag f, String text, boolean isDefault) {
        return switch (f.kind()) {
            case BOOL -> GoValues.parseBool(text);
            case STRING -> text;
            case DURATION -> GoDuration.parse(text);
            case INT -> GoValues.parseIntAnyBase(text);
            case STRING_LIST -> {
                List<String> l = new ArrayList<>();
                if (!text.isEmpty()) {
                    for (String part : text.split(",")) {
                        l.add(part.trim());
                    }
                }
                yield l;
            }
        };
    }

    private String str(String name) {
        return (String) values.get(name);
    }

    private boolean bool(String name) {
        return (Boolean) values.get(name);
    }

    private Duration dur(String name) {
        return (Duration) values.get(name);
    }

    /** --max-request-bytes (0 or less: the client's default). */
    public int maxRequestBytes() {
        return clamp((Long) values.get("max-request-bytes"));
    }

    /** --max-recv-bytes (0 or less: the client's default). */
    public int maxRecvBytes() {
        return clamp((Long) values.get("max-recv-bytes"));
    }

    /** gRPC's limits are ints: a larger value means no limit below math.MaxInt32. */
    private static int clamp(long v) {
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, v));
    }

    @SuppressWarnings("unchecked")
    public List<String> endpoints() {
        return (List<String>) values.get("endpoints");
    }

    public Duration dialTimeout() {
        return dur("dial-timeout");
    }

    public Duration commandTimeout() {
        return dur("command-timeout");
    }

    public Duration keepAliveTime() {
        return dur("keepalive-time");
    }

    public Duration keepAliveTimeout() {
        return dur("keepalive-timeout");
    }

    public boolean insecureTransport() {
        return bool("insecure-transport");
    }

    public boolean insecureSkipTlsVerify() {
        return bool("insecure-skip-tls-verify");
    }

    public String cacert() {
        return str("cacert");
    }

    public String cert() {
        return str("cert");
    }

    public String key() {
        return str("key");
    }

    public String user() {
        return str("user");
    }

    public String password() {
        return str("password");
    }

    public boolean hex() {
        return bool("hex");
    }

    public String writeOut() {
        return str("write-out");
    }

    public String discoverySrv() {
        return str("discovery-srv");
    }

    public String discoverySrvName() {
        return str("discovery-srv-name");
    }

    public boolean insecureDiscovery() {
        return bool("insecure-discovery");
    }

    public boolean debug() {
        return bool("debug");
    }
}
