package io.etcdj.etcdutl;

import io.etcdj.cli.CliException;
import io.etcdj.cli.ExitCodes;
import io.etcdj.cli.GoValues;
import io.etcdj.cli.PflagErrors;

/**
 * Number flags, kept as text by picocli and parsed here with pflag's and strconv's error texts (exit
 * code 1, as a flag error).
 */
final class Flags {
    private Flags() {
    }

    static long int64(String flag, String value) {
        try {
            return GoValues.parseInt(value, 10);
        } catch (IllegalArgumentException e) {
            throw invalid(flag, value, e);
        }
    }

    static long uint64(String flag, String value) {
        try {
            return GoValues.parseUint(value);
        } catch (IllegalArgumentException e) {
            throw invalid(flag, value, e);
        }
    }

    private static CliException invalid(String flag, String value, IllegalArgumentException e) {
        return new CliException(ExitCodes.ERROR, PflagErrors.invalidArgument(value, flag, e.getMessage()));
    }
}
