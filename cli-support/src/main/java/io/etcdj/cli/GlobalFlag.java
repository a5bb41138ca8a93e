package io.etcdj.cli;

import java.util.Locale;

/**
 * One global (cobra: persistent) flag of a tool: its names, value kind, the default as etcdctl's help
 * shows it, and its help text. {@link PersistentFlags} takes such flags out of a command line.
 */
public record GlobalFlag(String name, String shorthand, Kind kind, String defaultText, String usage) {

    /** How the flag's value is parsed and shown in help. */
    public enum Kind { BOOL, STRING, DURATION, STRING_LIST, INT }

    /** The flag as etcdctl's help lists it, e.g. {@code  -w, --write-out="simple"}. */
    public String helpName() {
        String prefix = shorthand == null ? "      --" : "  -" + shorthand + ", --";
        return prefix + name + switch (kind) {
            case BOOL -> "[=" + defaultText + "]";
            case STRING -> "=\"" + defaultText + "\"";
            case DURATION, INT -> "=" + defaultText;
            case STRING_LIST -> "=[" + defaultText + "]";
        };
    }

    /** The environment variable etcd's pkg/flags reads for this flag, e.g. {@code ETCDCTL_WRITE_OUT}. */
    public String envName(String prefix) {
        return prefix + name.toUpperCase(Locale.ROOT).replace('-', '_');
    }
}
