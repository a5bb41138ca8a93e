package io.etcdj.cli;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Takes a tool's global flags (cobra's persistent flags) out of a command line: pflag accepts them
 * anywhere before {@code --}, as {@code --name value}, {@code --name=value}, {@code -x value},
 * {@code -xvalue} or {@code -x=value}, and a bool flag alone means true. Everything else is left, in
 * order, for the command. Values go to a {@link Sink}; the first bad flag is kept in pflag's words.
 */
public final class PersistentFlags {

    /** Receives each flag's value as typed. */
    @FunctionalInterface
    public interface Sink {
        /**
         * Sets {@code flag} from {@code value}.
         *
         * @throws IllegalArgumentException with Go's parse error text when the value is bad
         */
        void set(GlobalFlag flag, String value);
    }

    private final List<String> rest = new ArrayList<>();
    private final Set<String> given = new HashSet<>();
    private final List<String> consumed = new ArrayList<>();
    private String error;

    private PersistentFlags() {
    }

    /** The arguments left for the command, in order. */
    public List<String> rest() {
        return rest;
    }

    /** The global-flag words as typed, values included. */
    public List<String> consumed() {
        return consumed;
    }

    /** The long names of the flags given. */
    public Set<String> given() {
        return given;
    }

    /** pflag's text for the first bad global flag, or null. */
    public String error() {
        return error;
    }

    /** Splits {@code args} into the global flags of {@code flags} (set on {@code sink}) and the rest. */
    public static PersistentFlags split(String[] args, List<GlobalFlag> flags, Sink sink) {
        PersistentFlags p = new PersistentFlags();
        boolean literal = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (literal || a.equals("-") || !a.startsWith("-")) {
                p.rest.add(a);
                continue;
            }
            if (a.equals("--")) {
                literal = true;
                p.rest.add(a);
                continue;
            }
            if (a.startsWith("--")) {
                String body = a.substring(2);
                int eq = body.indexOf('=');
                String name = eq < 0 ? body : body.substring(0, eq);
                GlobalFlag f = byName(flags, name);
                if (f == null) {
                    p.rest.add(a);
                    continue;
                }
                String value;
                p.consumed.add(a);
                if (eq >= 0) {
                    value = body.substring(eq + 1);
                } else if (f.kind() == GlobalFlag.Kind.BOOL) {
                    value = "true";
                } else if (i + 1 < args.length) {
                    value = args[++i];
                    p.consumed.add(value);
                } else {
                    p.fail("flag needs an argument: --" + name);
                    continue;
                }
                p.apply(sink, f, value, "--" + name);
            } else {
                String shorthand = a.substring(1, 2);
                GlobalFlag f = byShorthand(flags, shorthand);
                if (f == null) {
                    p.rest.add(a);
                    continue;
                }
                String value;
                p.consumed.add(a);
                if (a.length() > 2) {
                    value = a.charAt(2) == '=' ? a.substring(3) : a.substring(2);
                } else if (i + 1 < args.length) {
                    value = args[++i];
                    p.consumed.add(value);
                } else {
                    p.fail("flag needs an argument: '" + shorthand + "' in -" + shorthand);
                    continue;
                }
                p.apply(sink, f, value, "-" + shorthand + ", --" + f.name());
            }
        }
        return p;
    }

    /** The flag of {@code flags} with long name {@code name}, or null. */
    public static GlobalFlag byName(List<GlobalFlag> flags, String name) {
        for (GlobalFlag f : flags) {
            if (f.name().equals(name)) {
                return f;
            }
        }
        return null;
    }

    private static GlobalFlag byShorthand(List<GlobalFlag> flags, String s) {
        for (GlobalFlag f : flags) {
            if (s.equals(f.shorthand())) {
                return f;
            }
        }
        return null;
    }

    private void apply(Sink sink, GlobalFlag f, String value, String shownName) {
        given.add(f.name());
        try {
            sink.set(f, value);
        } catch (IllegalArgumentException e) {
            fail(PflagErrors.invalidArgument(value, shownName, e.getMessage()));
        }
    }

    private void fail(String message) {
        if (error == null) {
            error = message;
        }
    }
}
