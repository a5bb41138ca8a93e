package io.etcdj.cli.completion;

/**
 * zsh completion: zsh's bashcompinit module runs bash completion functions (with bash's 0-based
 * arrays), so the zsh script loads it and defines the same function as {@link BashScript}.
 */
public final class ZshScript {

    private ZshScript() {
    }

    /** The script for {@code program}, the name the tool is run by. */
    public static String of(String program, CommandWords words) {
        return "# zsh completion for " + program + "\n"
                + "# Load it in the current shell with:  source <(" + program + " completion zsh)\n"
                + "(( $+functions[compdef] )) || { autoload -U +X compinit && compinit; }\n"
                + "autoload -U +X bashcompinit && bashcompinit\n"
                + BashScript.of(program, words);
    }
}
