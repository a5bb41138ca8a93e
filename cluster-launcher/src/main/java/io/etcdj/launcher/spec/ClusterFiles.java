package io.etcdj.launcher.spec;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Loads a cluster description: picks the format (YAML or plain Procfile), parses it, resolves
 * relative paths and checks the result. The built-in default is the 3-member cluster of etcd's own
 * Procfile.
 */
public final class ClusterFiles {
    /** Where the built-in default cluster file lives on the class path. */
    public static final String DEFAULT_RESOURCE = "/io/etcdj/launcher/default-cluster.yml";
    public static final String DEFAULT_SOURCE = "default-cluster.yml (built in)";
    private static final Set<String> YAML_ONLY_KEYS = Set.of("members", "token", "tls", "etcd",
            "base-dir", "faults", "flags", "env");

    private ClusterFiles() {}

    /**
     * Loads {@code file}, or the built-in default when empty. Relative directories in a file are
     * taken relative to the file's own directory; those of the default relative to {@code cwd}.
     */
    public static ClusterSpec load(Optional<Path> file, Path cwd, Map<String, String> env)
            throws ClusterFileException {
        if (file.isEmpty()) {
            return finish(parse(DEFAULT_SOURCE, readDefault(), true, env), cwd);
        }
        Path path = file.get();
        String text;
        try {
            text = Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ClusterFileException(path.toString(), 0, "cannot read cluster file: "
                    + (e instanceof NoSuchFileException ? "no such file" : e.getMessage()));
        }
        Path dir = path.toAbsolutePath().getParent();
        return finish(parse(path.toString(), text, looksLikeYaml(path, text), env), dir);
    }

    /** Parses text in the given format; exposed for tests and for the built-in default. */
    public static ClusterSpec parse(String source, String text, boolean yaml, Map<String, String> env)
            throws ClusterFileException {
        ClusterSpec spec = yaml ? YamlClusterParser.parse(source, text, env)
                : ProcfileParser.parse(source, text, env);
        spec = ClusterNormalizer.normalize(spec);
        ClusterValidator.validate(spec);
        return spec;
    }

    /**
     * A file is YAML when its name says so, or when it uses indentation or the launcher's
     * cluster-wide keys; otherwise it is read as a plain Procfile.
     */
    static boolean looksLikeYaml(Path path, String text) {
        String name = path.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".yml") || name.endsWith(".yaml")) {
            return true;
        }
        for (String line : text.split("\r?\n")) {
            if (line.isBlank() || line.strip().startsWith("#")) {
                continue;
            }
            if (Character.isWhitespace(line.charAt(0)) || line.startsWith("-")) {
                return true;
            }
            int colon = line.indexOf(':');
            if (colon > 0 && YAML_ONLY_KEYS.contains(line.substring(0, colon).strip())) {
                return true;
            }
        }
        return false;
    }

    private static ClusterSpec finish(ClusterSpec spec, Path dir) {
        return spec.withBaseDir(dir.resolve(spec.baseDir()).normalize());
    }

    private static String readDefault() {
        try (InputStream in = ClusterFiles.class.getResourceAsStream(DEFAULT_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("built-in " + DEFAULT_RESOURCE + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read built-in " + DEFAULT_RESOURCE, e);
        }
    }
}
