package io.etcdj.cli.goflag;

import io.etcdj.cli.GoValues;

/**
 * The two ways Go programs read flags, with the words each uses for a bad command line. Go's
 * {@code flag} package: one or two dashes alike, the first word that is not a flag ends the flags,
 * {@code -h}/{@code -help} (when not defined) asks for help at once. spf13/pflag, as cobra runs it:
 * {@code --name} long and {@code -x} shorthand, words and flags mixed, {@code --help}/{@code -h}
 * is cobra's help flag (the rest of the line is still parsed).
 */
public enum FlagSyntax {
    GO_FLAG,
    PFLAG;

    String unknownFlag(String name) {
        return this == GO_FLAG ? "flag provided but not defined: -" + name : "unknown flag: --" + name;
    }

    String unknownShorthand(char c, String shorthands) {
        return "unknown shorthand flag: '" + c + "' in -" + shorthands;
    }

    /** {@code arg}: the word as typed (pflag names it so; Go's flag names the flag). */
    String needsArgument(String name, String arg) {
        return this == GO_FLAG ? "flag needs an argument: -" + name : "flag needs an argument: " + arg;
    }

    String badSyntax(String arg) {
        return "bad flag syntax: " + arg;
    }

    /**
     * A value its flag cannot take. Go's flag package reduces strconv's and time's errors to
     * "parse error" or "value out of range" and says "boolean" for a bool; pflag keeps the error.
     */
    String invalidValue(String name, FlagKind kind, String value, IllegalArgumentException e) {
        if (this == PFLAG) {
            return "invalid argument " + GoValues.quote(value) + " for \"--" + name + "\" flag: " + e.getMessage();
        }
        String reason = goFlagReason(e);
        return kind == FlagKind.BOOL
                ? "invalid boolean value " + GoValues.quote(value) + " for -" + name + ": " + reason
                : "invalid value " + GoValues.quote(value) + " for flag -" + name + ": " + reason;
    }

    /** What Go's flag package (numError) keeps of a value's parse error. */
    public static String goFlagReason(IllegalArgumentException e) {
        boolean range = e.getMessage() != null && e.getMessage().endsWith(": value out of range");
        return range ? "value out of range" : "parse error";
    }
}
