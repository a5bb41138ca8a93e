package io.etcdj.ctl.command;

import io.etcdj.api.etcdserverpb.Compare;
import io.etcdj.api.etcdserverpb.RequestOp;
import io.etcdj.cli.CliException;
import io.etcdj.cli.ExitCodes;
import io.etcdj.cli.GoQuote;
import io.etcdj.cli.GoValues;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Parses txn's text input: compares such as {@code mod("k") > "3"}, and request lines that use the
 * get/put/del command syntax.
 */
final class TxnParser {
    /** etcdctl's argify expression: "(?:[^"\\]|\\.)*"|'[^']*'|[^'"\s]\S*[^'"\s]? */
    private static final Pattern WORD = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'[^']*'|[^'\"\\s]\\S*[^'\"\\s]?");

    private TxnParser() {
    }

    /** One comparison line, read and refused exactly as etcdctl reads and refuses it. */
    static Compare compare(String line) {
        int paren = line.indexOf('(');
        if (paren < 0) {
            throw new CliException(ExitCodes.INVALID_INPUT, "malformed comparison: " + line);
        }
        String target = line.substring(0, paren);
        GoCompareScanner scan = new GoCompareScanner(line.substring(paren + 1));
        if (scan.count != 3) {
            throw new CliException(ExitCodes.INVALID_INPUT, "malformed comparison: " + line + "; got " + target + "("
                    + goQuote(scan.key) + ") " + scan.op + " " + goQuote(scan.value));
        }
        Compare.Builder c = Compare.newBuilder().setKey(Args.bytes(scan.key));
        String value = scan.value;
        try {
            switch (target) {
                case "ver", "version" -> c.setTarget(Compare.CompareTarget.VERSION).setVersion(GoValues.parseInt(value, 10));
                case "c", "create" -> c.setTarget(Compare.CompareTarget.CREATE).setCreateRevision(GoValues.parseInt(value, 10));
                case "m", "mod" -> c.setTarget(Compare.CompareTarget.MOD).setModRevision(GoValues.parseInt(value, 10));
                case "val", "value" -> c.setTarget(Compare.CompareTarget.VALUE).setValue(Args.bytes(value));
                case "lease" -> c.setTarget(Compare.CompareTarget.LEASE).setLease(GoValues.parseHexId(value));
                default -> throw new CliException(ExitCodes.INVALID_INPUT,
                        "malformed comparison: " + line + " (unknown target " + target + ")");
            }
        } catch (IllegalArgumentException e) {
            throw new CliException(ExitCodes.INVALID_INPUT, "invalid txn compare request: " + line);
        }
        // etcdctl 3.4 crashes on any other operator; a clear error is the only sane answer
        c.setResult(switch (scan.op) {
            case "=" -> Compare.CompareResult.EQUAL;
            case "!=" -> Compare.CompareResult.NOT_EQUAL;
            case "<" -> Compare.CompareResult.LESS;
            case ">" -> Compare.CompareResult.GREATER;
            default -> throw new CliException(ExitCodes.INVALID_INPUT,
                    "malformed comparison: " + line + " (unknown op " + scan.op + ")");
        });
        return c.build();
    }

    private static String goQuote(String s) {
        return GoQuote.quote(s.getBytes(StandardCharsets.UTF_8));
    }

    static RequestOp request(String line) {
        List<String> words = split(line);
        if (words.isEmpty()) {
            throw new CliException(ExitCodes.INVALID_INPUT, "invalid txn request: " + line);
        }
        String verb = words.get(0);
        String[] rest = words.subList(1, words.size()).toArray(new String[0]);
        try {
            switch (verb) {
                case "get" -> {
                    GetCommand g = new GetCommand();
                    new CommandLine(g).parseArgs(rest);
                    return RequestOp.newBuilder().setRequestRange(g.request(CtlCommandArgs.of(g.args))).build();
                }
                case "put" -> {
                    PutCommand p = new PutCommand();
                    new CommandLine(p).parseArgs(rest);
                    List<String> a = CtlCommandArgs.of(p.args);
                    if (a.size() != 2) {
                        throw new CliException(ExitCodes.INVALID_INPUT, "invalid txn request: " + line);
                    }
                    return RequestOp.newBuilder().setRequestPut(p.request(a.get(0), a.get(1))).build();
                }
                case "del", "delete" -> {
                    DelCommand d = new DelCommand();
                    new CommandLine(d).parseArgs(rest);
                    return RequestOp.newBuilder().setRequestDeleteRange(d.request(CtlCommandArgs.of(d.args))).build();
                }
                default -> throw new CliException(ExitCodes.INVALID_INPUT, "invalid txn request: " + line);
            }
        } catch (CommandLine.ParameterException e) {
            throw new CliException(ExitCodes.INVALID_INPUT, "invalid txn request: " + line);
        }
    }

    /**
     * etcdctl's {@code argify}: the words of a txn request line as its regular expression finds
     * them (a double-quoted Go string with escapes, a single-quoted string, or a run of non-spaces),
     * each double-quoted word read with Go's {@code %q} ({@code "key \"with\" space"} is the key
     * {@code key "with" space}). A single-quoted word loses its quotes (etcdctl 3.4 cuts it by the
     * number of words instead, a slip this keeps out).
     */
    static List<String> split(String line) {
        List<String> out = new ArrayList<>();
        Matcher m = WORD.matcher(line);
        while (m.find()) {
            String word = m.group();
            if (word.startsWith("'")) {
                word = word.substring(1, word.length() - 1);
            } else if (word.startsWith("\"")) {
                word = GoCompareScanner.scanQuoted(word);
                if (word == null) {
                    throw new CliException(ExitCodes.INVALID_INPUT, "invalid txn request: " + line);
                }
            }
            out.add(word);
        }
        return out;
    }

    /** Null-safe access to picocli's positional lists. */
    static final class CtlCommandArgs {
        private CtlCommandArgs() {
        }

        static List<String> of(List<String> args) {
            return args == null ? List.of() : args;
        }
    }
}
