package io.etcdj.cli;

import picocli.CommandLine;

/**
 * picocli converters for number and bool options that parse as Go's strconv does, so a bad value is
 * reported with strconv's text ({@code strconv.ParseBool: parsing "x": invalid syntax}).
 */
public final class GoConverters {

    private GoConverters() {
    }

    /** Registers the converters on {@code cl} (and the subcommands added before). */
    public static void register(CommandLine cl) {
        CommandLine.ITypeConverter<Long> int64 = s -> {
            try {
                return GoValues.parseInt(s, 10);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        };
        CommandLine.ITypeConverter<Integer> int32 = s -> {
            try {
                long v = GoValues.parseInt(s, 10);
                if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
                    throw new CommandLine.TypeConversionException(
                            "strconv.ParseInt: parsing " + GoValues.quote(s) + ": value out of range");
                }
                return (int) v;
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        };
        CommandLine.ITypeConverter<Boolean> bool = s -> {
            try {
                return GoValues.parseBool(s);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        };
        cl.registerConverter(Long.class, int64);
        cl.registerConverter(long.class, int64);
        cl.registerConverter(Integer.class, int32);
        cl.registerConverter(int.class, int32);
        cl.registerConverter(Boolean.class, bool);
        cl.registerConverter(boolean.class, bool);
    }
}
