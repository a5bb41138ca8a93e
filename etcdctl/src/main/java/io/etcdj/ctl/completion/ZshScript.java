package io.etcdj.ctl.completion;

/**
 * zsh completion: zsh's bashcompinit module runs bash completion functions (with bash's 0-based
 * arrays), so the zsh script loads it and defines the same function as {@link BashScript}.
 */
public final class ZshScript {

    private ZshScript() {
    }

    public static String of(CommandWords words) {
        return "# zsh completion for etcdctl\n"
                + "# Load it in the current shell with:  source <(etcdctl completion zsh)\n"
                + "(( $+functions[compdef] )) || { autoload -U +X compinit && compinit; }\n"
                + "autoload -U +X bashcompinit && bashcompinit\n"
                + BashScript.of(words);
    }
}
