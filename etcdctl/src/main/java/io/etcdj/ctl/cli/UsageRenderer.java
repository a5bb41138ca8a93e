package io.etcdj.ctl.cli;

import io.etcdj.cli.GlobalFlag;
import io.etcdj.cli.PflagErrors;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Renders help in etcdctl's layout (NAME, USAGE, DESCRIPTION, COMMANDS, OPTIONS, GLOBAL OPTIONS) from
 * the picocli model, so help and parsing can never disagree.
 */
public final class UsageRenderer {

    public static final String VERSION = "3.4.23";
    public static final String API_VERSION = "3.4";

    private UsageRenderer() {
    }

    public static String render(CommandSpec spec) {
        boolean root = spec.parent() == null;
        boolean group = !spec.subcommands().isEmpty();
        StringBuilder b = new StringBuilder();
        String path = path(spec);
        b.append("NAME:\n\t").append(root ? "etcdctl" : path).append(" - ")
                .append(first(spec.usageMessage().description())).append("\n\n");
        b.append("USAGE:\n\t").append(first(spec.usageMessage().customSynopsis())).append("\n\n");
        if (root) {
            b.append("VERSION:\n\t").append(VERSION).append("\n\n");
        }
        String[] longDescription = spec.usageMessage().header();
        if (!group && longDescription.length > 0) {
            b.append("DESCRIPTION:\n");
            for (String line : longDescription) {
                b.append('\t').append(line).append('\n');
            }
            b.append('\n');
        }
        if (group) {
            b.append("API VERSION:\n\t").append(API_VERSION).append("\n\n\n");
            b.append("COMMANDS:\n");
            TabWriter t = new TabWriter();
            List<String[]> entries = new ArrayList<>();
            collectCommands(spec, root, "", entries);
            entries.sort(Comparator.comparing(e -> e[0]));
            for (String[] e : entries) {
                t.row("", e[0], e[1]);
            }
            b.append(t.render()).append('\n');
        }
        b.append("OPTIONS:\n");
        b.append(options(spec, root)).append('\n');
        if (!root) {
            b.append("GLOBAL OPTIONS:\n");
            TabWriter t = new TabWriter();
            for (GlobalFlag f : GlobalOptions.FLAGS) {
                t.row(f.helpName(), f.usage());
            }
            b.append(t.render()).append('\n');
        }
        return b.toString();
    }

    private static void collectCommands(CommandSpec spec, boolean leavesOnly, String prefix, List<String[]> out) {
        for (CommandLine sub : spec.subcommands().values()) {
            CommandSpec s = sub.getCommandSpec();
            if (!s.name().equals(sub.getCommandName()) || s.usageMessage().hidden()) {
                continue;
            }
            if (leavesOnly && !s.subcommands().isEmpty()) {
                collectCommands(s, true, prefix + s.name() + " ", out);
            } else {
                out.add(new String[] {prefix + s.name(), first(s.usageMessage().description())});
            }
        }
        if (leavesOnly && prefix.isEmpty()) {
            out.add(new String[] {"help", "Help about any command"});
        }
    }

    private static String options(CommandSpec spec, boolean root) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"help", "  -h, --help[=false]", "help for " + spec.name()});
        for (OptionSpec o : spec.options()) {
            if (o.hidden()) {
                continue;
            }
            rows.add(new String[] {longName(o).substring(2), helpName(o), first(o.description())});
        }
        if (root) {
            for (GlobalFlag f : GlobalOptions.FLAGS) {
                rows.add(new String[] {f.name(), f.helpName(), f.usage()});
            }
        }
        rows.sort(Comparator.comparing(r -> r[0]));
        TabWriter t = new TabWriter();
        for (String[] r : rows) {
            t.row(r[1], r[2]);
        }
        return t.render();
    }

    private static String longName(OptionSpec o) {
        return o.longestName();
    }

    private static String helpName(OptionSpec o) {
        String shortName = PflagErrors.shorthand(o);
        String prefix = shortName == null ? "      " : "  " + shortName + ", ";
        String def = o.defaultValue() == null ? "" : o.defaultValue();
        Class<?> type = o.type();
        String shown;
        if (type == boolean.class || type == Boolean.class) {
            shown = "[=" + (def.isEmpty() ? "false" : def) + "]";
        } else if (type == String.class) {
            shown = "=\"" + def + "\"";
        } else {
            shown = "=" + (def.isEmpty() ? "0" : def);
        }
        return prefix + longName(o) + shown;
    }

    /** "get" or "lease grant": the command path below the root. */
    public static String path(CommandSpec spec) {
        List<String> names = new ArrayList<>();
        for (CommandSpec s = spec; s.parent() != null; s = s.parent()) {
            names.add(0, s.name());
        }
        return String.join(" ", names);
    }

    private static String first(String[] lines) {
        return lines.length == 0 ? "" : lines[0];
    }
}
