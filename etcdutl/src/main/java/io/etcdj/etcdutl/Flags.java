package io.etcdj.etcdutl;

/** Number flags parsed with the errors etcd's flag library gives (exit code 1, as a flag error). */
final class Flags {
    private Flags() {
    }

    static long int64(String flag, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw invalid(flag, value, "strconv.ParseInt");
        }
    }

    static long uint64(String flag, String value) {
        try {
            return Long.parseUnsignedLong(value);
        } catch (NumberFormatException e) {
            throw invalid(flag, value, "strconv.ParseUint");
        }
    }

    private static UtlException invalid(String flag, String value, String parser) {
        return new UtlException(ExitCodes.ERROR, "invalid argument \"" + value + "\" for \"" + flag + "\" flag: "
                + parser + ": parsing \"" + value + "\": invalid syntax");
    }
}
