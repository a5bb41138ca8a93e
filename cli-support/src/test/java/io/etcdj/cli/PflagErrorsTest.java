package io.etcdj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** picocli's parse errors in pflag's words, as etcdctl and etcdutl print them after "Error: ". */
class PflagErrorsTest {

    @Command(name = "get")
    static final class Get {
        @Option(names = "--limit")
        long limit;

        @Option(names = {"-w", "--write-out"})
        String writeOut;
    }

    private static String errorOf(String... args) {
        CommandLine cl = new CommandLine(new Get());
        cl.registerConverter(long.class, s -> {
            try {
                return GoValues.parseInt(s, 10);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        });
        return PflagErrors.describe(assertThrows(CommandLine.ParameterException.class, () -> cl.parseArgs(args)));
    }

    @Test
    void unknownFlags() {
        assertEquals("unknown flag: --foo", errorOf("--foo=1"));
        assertEquals("unknown shorthand flag: 'x' in -xyz=1", errorOf("-xyz=1"));
    }

    @Test
    void flagWithoutItsValue() {
        assertEquals("flag needs an argument: --limit", errorOf("--limit"));
    }

    @Test
    void badValueNamesTheFlagAsPflagDoes() {
        assertEquals("invalid argument \"x\" for \"--limit\" flag: strconv.ParseInt: parsing \"x\": invalid syntax",
                errorOf("--limit", "x"));
    }

    @Test
    void unknownCommand() {
        assertEquals("unknown command \"backup\" for \"etcdutl\"", PflagErrors.unknownCommand("backup", "etcdutl"));
    }
}
