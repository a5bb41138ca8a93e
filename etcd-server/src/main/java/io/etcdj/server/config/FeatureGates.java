package io.etcdj.server.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * etcd 3.6's server feature gates ({@code --feature-gates=Name=true,...}): their defaults, their
 * stage, and which ones this server cannot honour yet (accepted at the default value only).
 */
public final class FeatureGates {
    private record Gate(boolean def, String stage, String notYet) {
    }

    private static final Map<String, Gate> GATES = gates();
    /** The gates that stand for a whole stage. */
    private static final Map<String, String> ALL = Map.of("AllAlpha", "ALPHA", "AllBeta", "BETA");

    /** etcd's gates in --help's order, filled once; never changed after. */
    private static Map<String, Gate> gates() {
        Map<String, Gate> gates = new LinkedHashMap<>();
        gates.put("AllAlpha", new Gate(false, "ALPHA", null));
        gates.put("AllBeta", new Gate(false, "BETA", null));
        gates.put("CompactHashCheck", new Gate(false, "ALPHA", null));
        gates.put("InitialCorruptCheck", new Gate(false, "ALPHA", null));
        // Beyond etcd (its #9395): on by default here, so a lease's remaining TTL survives a leader
        // change and a restart; --feature-gates=LeaseCheckpoint=false or
        // --experimental-enable-lease-checkpoint=false turns both off (docs/operations.md).
        gates.put("LeaseCheckpoint", new Gate(true, "ALPHA", null));
        gates.put("LeaseCheckpointPersist", new Gate(true, "ALPHA", null));
        gates.put("SetMemberLocalAddr", new Gate(false, "ALPHA", null));
        gates.put("StopGRPCServiceOnDefrag", new Gate(false, "ALPHA", null));
        gates.put("TxnModeWriteWithSharedBuffer", new Gate(true, "BETA", null));
        return Collections.unmodifiableMap(gates);
    }

    private FeatureGates() {
    }

    /** The lines --help lists under --feature-gates. */
    static List<String> describe() {
        List<String> out = new ArrayList<>();
        GATES.forEach((name, g) -> out.add(name + "=true|false (" + g.stage + " - default=" + g.def + ")"));
        return out;
    }

    /**
     * Why a gate cannot be switched from its default yet, or null. AllAlpha and AllBeta switch on
     * every gate of their stage, so they can be honoured once each of those gates can.
     */
    static String notYet(String gate) {
        String all = ALL.get(gate);
        if (all != null) {
            for (Map.Entry<String, Gate> e : GATES.entrySet()) {
                if (e.getValue().stage.equals(all) && !ALL.containsKey(e.getKey()) && e.getValue().notYet != null) {
                    return "it would switch on " + e.getKey() + ": " + e.getValue().notYet;
                }
            }
            return null;
        }
        return GATES.get(gate).notYet;
    }

    /**
     * A gate's value: as given, else on when its stage's All gate is on (as Go's feature gates
     * treat AllAlpha and AllBeta), else its default.
     */
    static boolean value(String gate, Map<String, Boolean> given) {
        Boolean v = given.get(gate);
        if (v != null) {
            return v;
        }
        Gate g = GATES.get(gate);
        if (!ALL.containsKey(gate)) {
            for (Map.Entry<String, String> all : ALL.entrySet()) {
                if (all.getValue().equals(g.stage) && Boolean.TRUE.equals(given.get(all.getKey()))) {
                    return true;
                }
            }
        }
        return g.def;
    }

    static boolean defaultOf(String gate) {
        return GATES.get(gate).def;
    }

    /**
     * Parses the flag's value ("A=true,B=false") into the gates given, refusing unknown names and
     * values that are not booleans with Go's messages.
     */
    static Map<String, Boolean> parse(String value) throws ConfigException {
        Map<String, Boolean> out = new LinkedHashMap<>();
        for (String part : value.split(",")) {
            String s = part.trim();
            if (s.isEmpty()) {
                continue;
            }
            int eq = s.indexOf('=');
            if (eq < 0) {
                throw flagError(value, "missing bool value for " + s);
            }
            String name = s.substring(0, eq).trim();
            String v = s.substring(eq + 1).trim();
            if (!GATES.containsKey(name)) {
                throw flagError(value, "unrecognized feature gate: " + name);
            }
            Boolean b = FlagParser.parseBool(v);
            if (b == null) {
                throw flagError(value, "invalid value of " + name + "=" + v + ", err: strconv.ParseBool: parsing \""
                        + v + "\": invalid syntax");
            }
            out.put(name, b);
        }
        return out;
    }

    private static ConfigException flagError(String value, String why) {
        return new ConfigException("invalid value \"" + value + "\" for flag -feature-gates: " + why, 2, true);
    }
}
