package io.etcdj.cli.goflag;

import io.etcdj.cli.GoDuration;
import io.etcdj.cli.GoValues;
import java.math.BigInteger;
import java.util.regex.Pattern;

/**
 * The value a flag takes, parsed as the Go flag value of that type parses it: {@link #parse} returns
 * the value or throws strconv's or time's own text, which pflag shows as is and Go's flag package
 * shortens to "parse error" or "value out of range" ({@link FlagSyntax}).
 */
public enum FlagKind {
    /** Any text. */
    STRING,
    /** strconv.ParseBool; given without a value it is true. */
    BOOL,
    /** A 64-bit integer, strconv.ParseInt(s, 0, 64): 0x, 0o/0 and 0b prefixes pick the base. */
    INT,
    /** A 64-bit unsigned integer, strconv.ParseUint(s, 0, 64). */
    UINT,
    /** pflag's uint32, strconv.ParseUint(s, 0, 32). */
    UINT32,
    /** strconv.ParseFloat(s, 64). */
    FLOAT,
    /** time.ParseDuration. */
    DURATION,
    /** pflag's string slice: comma-separated words, appended on each use (the flag set's owner joins them). */
    STRINGS,
    /**
     * etcd's flags.IgnoredFlag: a retired flag accepted like a bool (alone or {@code =anything}) and
     * then ignored, so an old unit file keeps working.
     */
    IGNORED;

    /** ParseFloat's decimal and hex notations (inf and nan are matched apart). */
    private static final Pattern GO_FLOAT = Pattern.compile(
            "[+-]?((\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?|0[xX]([0-9a-fA-F]+\\.?[0-9a-fA-F]*|\\.[0-9a-fA-F]+)[pP][+-]?\\d+)");

    /** Whether the flag takes no separate value word (Go's IsBoolFlag). */
    public boolean boolLike() {
        return this == BOOL || this == IGNORED;
    }

    /**
     * The value {@code text} stands for: String, Boolean, Long (unsigned for UINT), Double or
     * java.time.Duration.
     *
     * @throws IllegalArgumentException with Go's text, e.g. {@code strconv.ParseInt: parsing "x": invalid syntax}
     */
    public Object parse(String text) {
        return switch (this) {
            case STRING, STRINGS, IGNORED -> text;
            case BOOL -> GoValues.parseBool(text);
            case INT -> GoValues.parseIntAnyBase(text);
            case UINT -> parseUint(text, 64);
            case UINT32 -> parseUint(text, 32);
            case FLOAT -> parseFloat(text);
            case DURATION -> GoDuration.parse(text);
        };
    }

    /** strconv.ParseUint(text, 0, bits): a base prefix as ParseInt takes it, no sign. */
    private static long parseUint(String text, int bits) {
        GoValues.Digits split = GoValues.Digits.of(text);
        int base = split.base();
        String digits = split.digits();
        int radix = base;
        if (digits.isEmpty() || !digits.chars().allMatch(c -> Character.digit(c, radix) >= 0)) {
            throw strconv("ParseUint", text, "invalid syntax");
        }
        BigInteger value = new BigInteger(digits, base);
        if (value.bitLength() > bits) {
            throw strconv("ParseUint", text, "value out of range");
        }
        return value.longValue();
    }

    /** strconv.ParseFloat(text, 64): decimal or hex notation, inf and nan in any case. */
    private static double parseFloat(String text) {
        String go = text.replace("_", "");
        if (go.matches("(?i)[+-]?(inf|infinity)")) {
            return go.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        if (go.matches("(?i)[+-]?nan")) {
            return Double.NaN;
        }
        // only Go's grammar: Java's parser would also take blanks around it and a d or f suffix
        if (GO_FLOAT.matcher(go).matches()) {
            double value = Double.parseDouble(go);
            if (Double.isInfinite(value)) {
                throw strconv("ParseFloat", text, "value out of range");
            }
            return value;
        }
        throw strconv("ParseFloat", text, "invalid syntax");
    }

    /** strconv's error: {@code strconv.ParseUint: parsing "x": invalid syntax}. */
    private static IllegalArgumentException strconv(String function, String text, String reason) {
        return new IllegalArgumentException("strconv." + function + ": parsing " + GoValues.quote(text) + ": " + reason);
    }
}
