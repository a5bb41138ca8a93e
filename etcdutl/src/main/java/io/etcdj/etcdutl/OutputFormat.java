package io.etcdj.etcdutl;

/** The global {@code -w/--write-out} values etcdutl accepts. */
enum OutputFormat {
    SIMPLE, JSON, TABLE, FIELDS, PROTOBUF;

    static OutputFormat parse(String s) {
        for (OutputFormat f : values()) {
            if (f.name().toLowerCase(java.util.Locale.ROOT).equals(s)) {
                return f;
            }
        }
        throw new UtlException(ExitCodes.BAD_FEATURE, "unsupported output format");
    }
}
