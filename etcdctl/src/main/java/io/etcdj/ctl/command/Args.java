package io.etcdj.ctl.command;

import com.google.protobuf.ByteString;
import io.etcdj.cli.CliException;
import io.etcdj.cli.GoValues;
import java.nio.charset.StandardCharsets;

/** Argument conversions shared by commands, failing with etcdctl's texts. */
final class Args {

    private Args() {
    }

    static ByteString bytes(String s) {
        return ByteString.copyFrom(s, StandardCharsets.UTF_8);
    }

    /** A lease ID for put's --lease: "0" means none. */
    static long leaseFlag(String s) {
        try {
            return GoValues.parseHexId(s);
        } catch (IllegalArgumentException e) {
            throw CliException.badArgs("bad lease ID (" + e.getMessage() + "), expecting ID in Hex");
        }
    }

    /** A lease ID given as an argument to the lease commands. */
    static long leaseArg(String s) {
        try {
            return GoValues.parseHexId(s);
        } catch (IllegalArgumentException e) {
            throw CliException.badArgs("bad lease ID arg (" + e.getMessage() + "), expecting ID in Hex");
        }
    }

    /** strconv.ParseUint(s, 16, 64). */
    static long parseUintHex(String s) {
        if (s.isEmpty() || s.startsWith("-") || s.startsWith("+")) {
            throw new IllegalArgumentException("strconv.ParseUint: parsing \"" + s + "\": invalid syntax");
        }
        try {
            return Long.parseUnsignedLong(s, 16);
        } catch (NumberFormatException e) {
            boolean digits = s.chars().allMatch(c -> Character.digit(c, 16) >= 0);
            throw new IllegalArgumentException("strconv.ParseUint: parsing \"" + s + "\": "
                    + (digits ? "value out of range" : "invalid syntax"), e);
        }
    }

    /** A member ID argument. */
    static long memberId(String s) {
        try {
            return parseUintHex(s);
        } catch (IllegalArgumentException e) {
            throw CliException.badArgs("bad member ID arg (" + e.getMessage() + "), expecting ID in Hex");
        }
    }
}
