package io.etcdj.cli.completion;

import java.util.Map;

/**
 * A bash completion function for a tool (etcdctl, etcdutl). The words typed so far are walked to find the deepest known
 * command path (flags and their values are skipped); a word starting with "-" completes to that
 * command's flags and the global flags, any other word to its subcommands, and where there are none
 * bash falls back to file names.
 */
public final class BashScript {

    private BashScript() {
    }

    /** The script for {@code program}, the name the tool is run by. */
    public static String of(String program, CommandWords words) {
        StringBuilder s = new StringBuilder();
        s.append("# bash completion for ").append(program).append('\n');
        s.append("# Load it in the current shell with:  source <(").append(program).append(" completion bash)\n");
        s.append("_").append(program).append("_completion() {\n");
        s.append("    local cur=\"${COMP_WORDS[COMP_CWORD]}\" path=\"\" i\n");
        s.append("    for ((i = 1; i < COMP_CWORD; i++)); do\n");
        s.append("        case \"${path:+$path }${COMP_WORDS[i]}\" in\n");
        s.append("            ");
        boolean first = true;
        for (String path : words.paths().keySet()) {
            if (path.isEmpty()) {
                continue;
            }
            s.append(first ? "" : "|").append('"').append(path).append('"');
            first = false;
        }
        s.append(") path=\"${path:+$path }${COMP_WORDS[i]}\" ;;\n");
        s.append("        esac\n");
        s.append("    done\n");
        s.append("    local subcommands=\"\" flags=\"").append(String.join(" ", words.globalFlags())).append("\"\n");
        s.append("    case \"$path\" in\n");
        for (Map.Entry<String, CommandWords.Node> e : words.paths().entrySet()) {
            s.append("        \"").append(e.getKey()).append("\") subcommands=\"")
                    .append(String.join(" ", e.getValue().subcommands())).append("\"; flags=\"$flags ")
                    .append(String.join(" ", e.getValue().flags())).append("\" ;;\n");
        }
        s.append("    esac\n");
        s.append("    if [[ \"$cur\" == -* ]]; then\n");
        s.append("        COMPREPLY=($(compgen -W \"$flags\" -- \"$cur\"))\n");
        s.append("    else\n");
        s.append("        COMPREPLY=($(compgen -W \"$subcommands\" -- \"$cur\"))\n");
        s.append("    fi\n");
        s.append("}\n");
        s.append("complete -o default -F _").append(program).append("_completion ").append(program).append('\n');
        return s.toString();
    }
}
