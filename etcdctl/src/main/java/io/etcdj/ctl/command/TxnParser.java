package io.etcdj.ctl.command;

import io.etcdj.api.etcdserverpb.Compare;
import io.etcdj.api.etcdserverpb.RequestOp;
import io.etcdj.cli.CliException;
import io.etcdj.cli.ExitCodes;
import io.etcdj.cli.GoValues;
import io.etcdj.ctl.printer.GoQuote;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * Parses txn's text input: compares such as {@code mod("k") > "3"}, and request lines that use the
 * get/put/del command syntax.
 */
final class TxnParser {

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

    /** Splits on spaces, keeping double- or single-quoted words together. */
    static List<String> split(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        char quote = 0;
        boolean inWord = false;
        for (char ch : line.toCharArray()) {
            if (quote != 0) {
                if (ch == quote) {
                    quote = 0;
                } else {
                    cur.append(ch);
                }
            } else if (ch == '"' || ch == '\'') {
                quote = ch;
                inWord = true;
            } else if (Character.isWhitespace(ch)) {
                if (inWord) {
                    out.add(cur.toString());
                    cur.setLength(0);
                    inWord = false;
                }
            } else {
                cur.append(ch);
                inWord = true;
            }
        }
        if (inWord) {
            out.add(cur.toString());
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
