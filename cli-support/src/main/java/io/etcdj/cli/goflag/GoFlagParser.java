package io.etcdj.cli.goflag;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Reads a command line as Go's {@code flag} package or spf13/pflag does ({@link FlagSyntax}): which
 * flags were given, with which values, in order, and the words that are not flags. Unknown flags,
 * missing values and values their kind cannot take fail with the exact text of the Go library. What
 * the flags mean, defaults, environment variables and help output stay with the command.
 */
public final class GoFlagParser {

    /** One flag as given: its name, the text after it and that text parsed ({@link FlagKind#parse}). */
    public record Setting(String name, String text, Object value) {
    }

    /**
     * The outcome: the flags given, in order (a flag given twice is there twice); the words that
     * are not flags; whether help was asked for (Go's flag package stops there, pflag reads on).
     */
    public record Result(List<Setting> settings, List<String> positional, boolean help) {
    }

    private final FlagSyntax syntax;
    private final Function<String, FlagKind> flags;

    /** {@code flags}: the kind of each flag the command defines by name, null for a name it does not. */
    public GoFlagParser(FlagSyntax syntax, Function<String, FlagKind> flags) {
        this.syntax = syntax;
        this.flags = flags;
    }

    public Result parse(List<String> args) throws FlagException {
        List<Setting> settings = new ArrayList<>();
        List<String> positional = new ArrayList<>();
        boolean help = false;
        int i = 0;
        while (i < args.size()) {
            String arg = args.get(i++);
            if (arg.length() < 2 || arg.charAt(0) != '-') {
                if (syntax == FlagSyntax.GO_FLAG) {
                    // the flag package stops at the first word that is not a flag
                    positional.addAll(args.subList(i - 1, args.size()));
                    break;
                }
                positional.add(arg);
                continue;
            }
            if (arg.equals("--")) {
                positional.addAll(args.subList(i, args.size()));
                break;
            }
            boolean longForm = arg.startsWith("--");
            if (syntax == FlagSyntax.PFLAG && !longForm) {
                // shorthands: cobra defines -h (help) only for the commands this parser serves
                String shorthands = arg.substring(1);
                if (shorthands.charAt(0) != 'h') {
                    throw new FlagException(syntax.unknownShorthand(shorthands.charAt(0), shorthands));
                }
                help = true;
                continue;
            }
            String name = arg.substring(longForm ? 2 : 1);
            if (name.isEmpty() || name.charAt(0) == '-' || name.charAt(0) == '=') {
                throw new FlagException(syntax.badSyntax(arg));
            }
            String value = null;
            int eq = name.indexOf('=');
            if (eq > 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            }
            FlagKind kind = flags.apply(name);
            if (kind == null && (name.equals("help") || syntax == FlagSyntax.GO_FLAG && name.equals("h"))) {
                if (syntax == FlagSyntax.GO_FLAG) {
                    return new Result(settings, positional, true); // ErrHelp: nothing after it is read
                }
                help = true;
                continue;
            }
            if (kind == null) {
                throw new FlagException(syntax.unknownFlag(name));
            }
            if (value == null) {
                if (kind.boolLike()) {
                    value = "true";
                } else if (i < args.size()) {
                    value = args.get(i++);
                } else {
                    throw new FlagException(syntax.needsArgument(name, arg));
                }
            }
            try {
                settings.add(new Setting(name, value, kind.parse(value)));
            } catch (IllegalArgumentException e) {
                throw new FlagException(syntax.invalidValue(name, kind, value, e));
            }
        }
        return new Result(List.copyOf(settings), List.copyOf(positional), help);
    }
}
