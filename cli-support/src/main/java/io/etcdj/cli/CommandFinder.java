package io.etcdj.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Finds the command a command line names as cobra's {@code Command.Find} does, so flags may stand
 * before, between and after the command words ({@code etcdctl member --hex list},
 * {@code etcdctl lease --endpoints X grant 10}). At each level the flags are stepped over with that
 * level's flag set (cobra's {@code stripFlags}): a {@code --name} or {@code -x} without {@code =} that
 * is not known there as a bool takes the next word as its value, so an unknown flag before a command
 * word hides it (cobra then reports the flag, or the word as an unknown command). The first word left
 * that names a subcommand is taken out at its position, and the search goes on below it.
 *
 * @param <C> the tool's command model
 */
public final class CommandFinder<C> {

    /** What the finder needs to know of one command. */
    public interface Model<C> {
        /** The subcommand of {@code command} that {@code word} names (with the tool's prefix matching), or null. */
        C subcommand(C command, String word);

        /**
         * Whether {@code command} knows {@code flag} (a long name without dashes, or a one-letter
         * shorthand) as a flag that takes no value: pflag's NoOptDefVal, which bools have. Not help:
         * cobra adds the help flag only to the command it found, so {@code member -h list} shows
         * member's help.
         */
        boolean takesNoValue(C command, String flag, boolean shorthand);
    }

    /**
     * The command found, the words that named it (as typed, in order) and the arguments left for it
     * in their original order.
     */
    public record Found<C>(C command, List<String> path, List<String> args) {
    }

    private final Model<C> model;

    public CommandFinder(Model<C> model) {
        this.model = model;
    }

    /** Finds the command {@code args} (the words after the program name) name below {@code root}. */
    public Found<C> find(C root, List<String> args) {
        C current = root;
        List<String> left = new ArrayList<>(args);
        List<String> path = new ArrayList<>();
        while (true) {
            int at = firstWord(current, left);
            if (at < 0) {
                break;
            }
            C next = model.subcommand(current, left.get(at));
            if (next == null) {
                break;
            }
            path.add(left.remove(at));
            current = next;
        }
        return new Found<>(current, path, left);
    }

    /**
     * The words of {@code args} that are not flags or flag values at {@code command}'s level (cobra's
     * stripFlags); cobra reports the first of them as an unknown command at the root.
     */
    public List<String> words(C command, List<String> args) {
        List<String> out = new ArrayList<>();
        int from = 0;
        int at;
        while ((at = nextWord(command, args, from)) >= 0) {
            out.add(args.get(at));
            from = at + 1;
        }
        return out;
    }

    private int firstWord(C command, List<String> args) {
        return nextWord(command, args, 0);
    }

    private int nextWord(C command, List<String> args, int from) {
        for (int i = from; i < args.size(); i++) {
            String s = args.get(i);
            if (s.equals("--")) {
                return -1;
            }
            boolean valued = !s.contains("=")
                    && (s.startsWith("--") && !model.takesNoValue(command, s.substring(2), false)
                        || s.length() == 2 && s.charAt(0) == '-' && !model.takesNoValue(command, s.substring(1), true));
            if (valued) {
                if (i + 1 >= args.size() - 1) {
                    // cobra stops looking when such a flag has at most one word after it
                    return -1;
                }
                i++;
                continue;
            }
            if (!s.isEmpty() && !s.startsWith("-")) {
                return i;
            }
        }
        return -1;
    }
}
