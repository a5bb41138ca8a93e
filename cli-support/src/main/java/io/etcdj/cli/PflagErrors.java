package io.etcdj.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * pflag's and cobra's words for a bad command line ({@code unknown flag: --x},
 * {@code flag needs an argument: 'w' in -w}, {@code invalid argument "x" for "--rev" flag: ...},
 * {@code unknown command "x" for "etcdutl"}), built from picocli's parse errors.
 */
public final class PflagErrors {

    private PflagErrors() {
    }

    /** pflag's text for an unknown flag as typed: {@code --name[=value]} or shorthand {@code -x...}. */
    public static String unknownFlag(String arg) {
        if (arg.startsWith("--")) {
            int eq = arg.indexOf('=');
            return "unknown flag: " + (eq < 0 ? arg : arg.substring(0, eq));
        }
        return "unknown shorthand flag: '" + arg.charAt(1) + "' in " + arg;
    }

    /** pflag's text for a flag given last without its value. */
    public static String flagNeedsArgument(OptionSpec o) {
        String name = o.longestName();
        return "flag needs an argument: " + (name.startsWith("--") ? name : "'" + name.substring(1) + "' in " + name);
    }

    /** pflag's text for a value its flag cannot take; {@code shownName} as {@link #shownName} gives it. */
    public static String invalidArgument(String value, String shownName, String detail) {
        return "invalid argument " + GoValues.quote(value) + " for " + GoValues.quote(shownName) + " flag: " + detail;
    }

    /** cobra's text for a word that names no subcommand of {@code commandPath} (e.g. "etcdutl snapshot"). */
    public static String unknownCommand(String word, String commandPath) {
        return "unknown command \"" + word + "\" for \"" + commandPath + "\"";
    }

    /** The flag as pflag names it in errors: {@code -w, --write-out} or {@code --rev}. */
    public static String shownName(OptionSpec o) {
        String shortName = shorthand(o);
        return shortName == null ? o.longestName() : shortName + ", " + o.longestName();
    }

    /** The option's one-dash name as declared ({@code -w}), or null when it has none. */
    public static String shorthand(OptionSpec o) {
        String shortName = null;
        for (String n : o.names()) {
            if (!n.startsWith("--")) {
                shortName = n;
            }
        }
        return shortName;
    }

    /**
     * pflag's wording for a picocli parse error: an unknown flag, a missing value, a bad value; any
     * other error keeps picocli's message.
     */
    public static String describe(CommandLine.ParameterException e) {
        if (e instanceof CommandLine.UnmatchedArgumentException u) {
            for (String arg : u.getUnmatched()) {
                if (arg.startsWith("-")) {
                    return unknownFlag(arg);
                }
            }
        }
        if (e instanceof CommandLine.MissingParameterException m) {
            for (ArgSpec a : m.getMissing()) {
                if (a instanceof OptionSpec o) {
                    return flagNeedsArgument(o);
                }
            }
        }
        if (e.getArgSpec() instanceof OptionSpec o && e.getValue() != null) {
            Throwable cause = e.getCause();
            String detail = cause != null && cause.getMessage() != null ? cause.getMessage() : e.getMessage();
            return invalidArgument(e.getValue(), shownName(o), detail);
        }
        return e.getMessage();
    }
}
