package io.etcdj.server.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns the flags as given into the settings the server reads: a deprecated {@code experimental-}
 * spelling stands for its 3.6 name (both given is an error, as in etcd 3.6), the experimental
 * boolean features become feature gates, and a flag this server cannot honour yet stops the
 * start-up unless it keeps its default value.
 */
final class FlagResolver {
    private static final String GATE = "feature-gates:";

    private final Map<String, String> given;
    private final List<String> warnings = new ArrayList<>();
    private final Map<String, Boolean> gates = new LinkedHashMap<>();

    FlagResolver(Map<String, String> given) {
        this.given = given;
    }

    List<String> warnings() {
        return warnings;
    }

    boolean gate(String name) {
        return FeatureGates.value(name, gates);
    }

    /** Whether a gate was set on the command line, in the config file or the environment. */
    boolean gateGiven(String name) {
        return gates.containsKey(name);
    }

    /** The given values, every deprecated spelling moved to its 3.6 name. */
    Map<String, String> resolve() throws ConfigException {
        for (Map.Entry<String, String> e : given.entrySet()) {
            Flag f = Flag.find(e.getKey());
            if (f != null && f.notYet() != null && f.replacedBy() == null && !isDefault(f, e.getValue())) {
                throw notYet(f.name(), e.getValue(), f.notYet());
            }
        }
        Map<String, String> out = new LinkedHashMap<>(given);
        if (given.containsKey("feature-gates")) {
            gates.putAll(FeatureGates.parse(given.get("feature-gates")));
        }
        for (Map.Entry<String, String> e : given.entrySet()) {
            Flag f = Flag.find(e.getKey());
            if (f == null || f.replacedBy() == null) {
                continue;
            }
            out.remove(f.name());
            if (f.replacedBy().startsWith(GATE)) {
                String gate = f.replacedBy().substring(GATE.length());
                if (gates.containsKey(gate)) {
                    throw new ConfigException("cannot specify both --" + f.name() + " and --feature-gates=" + gate);
                }
                gates.put(gate, FlagParser.parseBool(e.getValue().trim()));
                warnings.add("--" + f.name() + " is deprecated in 3.6 and will be decommissioned in 3.7. Use '--feature-gates="
                        + gate + "=" + e.getValue().trim() + "' instead.");
                continue;
            }
            String target = f.replacedBy();
            if (given.containsKey(target)) {
                throw new ConfigException("cannot set --" + f.name() + " and --" + target
                        + " at the same time, please use --" + target + " only");
            }
            if (f.notYet() != null && !isDefault(f, e.getValue())) {
                throw notYet(f.name(), e.getValue(), f.notYet());
            }
            out.put(target, e.getValue());
            warnings.add("--" + f.name() + " is deprecated in 3.6 and will be decommissioned in 3.7. Use '--" + target
                    + "' instead.");
        }
        for (Map.Entry<String, Boolean> g : gates.entrySet()) {
            String why = FeatureGates.notYet(g.getKey());
            if (why != null && g.getValue() != FeatureGates.defaultOf(g.getKey())) {
                throw notYet("feature-gates", g.getKey() + "=" + g.getValue(), why);
            }
        }
        return out;
    }

    private static ConfigException notYet(String flag, String value, String why) {
        return new ConfigException("--" + flag + "=" + value + " is not supported by this server yet (" + why
                + "); remove the flag or give it its default value");
    }

    /** Whether a value means the flag's default (so the flag has nothing to do). */
    static boolean isDefault(Flag f, String value) {
        String v = value.trim();
        String d = f.defaultValue();
        return switch (f.kind()) {
            case BOOL -> Boolean.valueOf(d).equals(FlagParser.parseBool(v));
            case DURATION -> {
                Duration dv = Durations.tryParse(v);
                yield dv != null && dv.equals(Durations.tryParse(d));
            }
            case INT, UINT -> {
                try {
                    yield Long.parseUnsignedLong(v.replaceFirst("^-", "")) == Long.parseUnsignedLong(d) && !v.startsWith("-");
                } catch (NumberFormatException e) {
                    yield false;
                }
            }
            default -> v.equals(d) || ("*".equals(d) && v.isEmpty());
        };
    }
}
