package io.etcdj.cli.completion;

import io.etcdj.cli.GlobalFlag;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * What can follow each command path: e.g. {@code "member"} offers {@code add list ...}, {@code "get"}
 * offers {@code --prefix ...}. The root's path is the empty string.
 */
public record CommandWords(Map<String, Node> paths, List<String> globalFlags) {

    /** The subcommands and the command's own flags (long and short names) at one path. */
    public record Node(List<String> subcommands, List<String> flags) {
    }

    /** The words of {@code root}'s tree, with the tool's global flags {@code globals}. */
    public static CommandWords of(CommandLine root, List<GlobalFlag> globals) {
        Map<String, Node> paths = new LinkedHashMap<>();
        collect("", root, paths);
        List<String> global = new ArrayList<>();
        for (GlobalFlag f : globals) {
            global.add("--" + f.name());
            if (f.shorthand() != null) {
                global.add("-" + f.shorthand());
            }
        }
        return new CommandWords(paths, global);
    }

    private static void collect(String path, CommandLine cl, Map<String, Node> paths) {
        List<String> flags = new ArrayList<>();
        for (OptionSpec o : cl.getCommandSpec().options()) {
            if (!o.hidden()) {
                flags.addAll(List.of(o.names()));
            }
        }
        if (!flags.contains("--help")) {
            // Every command of both tools answers -h/--help.
            flags.add("--help");
            flags.add("-h");
        }
        paths.put(path, new Node(new ArrayList<>(cl.getSubcommands().keySet()), flags));
        cl.getSubcommands().forEach((name, sub) -> collect(path.isEmpty() ? name : path + " " + name, sub, paths));
    }
}
