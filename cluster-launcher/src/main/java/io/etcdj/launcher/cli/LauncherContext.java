package io.etcdj.launcher.cli;

import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * What commands take from the outside world, so tests can supply their own: environment,
 * working directory, installation directory and output streams.
 */
public record LauncherContext(Map<String, String> env, Path cwd, Optional<Path> installHome,
        PrintStream out, PrintStream err) {

    public static LauncherContext fromSystem() {
        Map<String, String> env = System.getenv();
        return new LauncherContext(env, Path.of("").toAbsolutePath(), installHome(env), System.out, System.err);
    }

    /**
     * The project directory holding bin/: from ETCDJ_HOME (set by bin/cluster-launcher), else three
     * levels above this module's jar or classes (MODULE/target/JAR).
     */
    static Optional<Path> installHome(Map<String, String> env) {
        String fromEnv = env.get("ETCDJ_HOME");
        if (fromEnv != null && !fromEnv.isBlank()) {
            return Optional.of(Path.of(fromEnv).toAbsolutePath());
        }
        try {
            Path code = Path.of(LauncherContext.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path home = code.getParent() != null && code.getParent().getParent() != null
                    ? code.getParent().getParent().getParent() : null;
            return home != null && Files.isDirectory(home.resolve("bin")) ? Optional.of(home) : Optional.empty();
        } catch (URISyntaxException | SecurityException | NullPointerException e) {
            return Optional.empty();
        }
    }
}
