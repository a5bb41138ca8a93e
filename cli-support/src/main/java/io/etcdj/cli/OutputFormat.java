package io.etcdj.cli;

import java.util.Locale;

/** The values of the global {@code -w/--write-out} flag of etcdctl and etcdutl. */
public enum OutputFormat {
    SIMPLE, JSON, PROTOBUF, FIELDS, TABLE;

    /** The flag's value as typed, e.g. {@code "table"}. */
    public String text() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The format {@code value} names (exactly, in lower case, as etcd compares it).
     *
     * @throws CliException etcd's {@code unsupported output format}, exit code 4
     */
    public static OutputFormat parse(String value) {
        for (OutputFormat f : values()) {
            if (f.text().equals(value)) {
                return f;
            }
        }
        throw new CliException(ExitCodes.BAD_FEATURE, "unsupported output format");
    }
}
