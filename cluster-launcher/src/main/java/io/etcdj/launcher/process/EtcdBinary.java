package io.etcdj.launcher.process;

import io.etcdj.launcher.LauncherException;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The etcd binary members run, and why that one. Precedence: {@code --etcd-binary}, then the
 * {@code ETCD_BIN} environment variable, then {@code etcd:} in the cluster file, then the
 * project's own {@code bin/etcd}, then {@code etcd} on the PATH.
 */
public record EtcdBinary(Path path, String origin) {

    public static EtcdBinary resolve(Optional<String> fromOption, Map<String, String> env,
            Optional<String> fromFile, Optional<Path> installHome, Path fileDir) {
        if (fromOption.isPresent()) {
            return check(Path.of(fromOption.get()).toAbsolutePath(), "--etcd-binary");
        }
        String fromEnv = env.get("ETCD_BIN");
        if (fromEnv != null && !fromEnv.isBlank()) {
            return check(Path.of(fromEnv).toAbsolutePath(), "ETCD_BIN");
        }
        if (fromFile.isPresent()) {
            String text = fromFile.get();
            Path p = text.contains("/") ? fileDir.resolve(text).normalize() : onPath(text, env).orElse(Path.of(text));
            return check(p, "etcd: in the cluster file");
        }
        if (installHome.isPresent()) {
            Path own = installHome.get().resolve("bin").resolve("etcd");
            if (Files.isExecutable(own)) {
                return new EtcdBinary(own, "the project's bin/etcd");
            }
        }
        return onPath("etcd", env).map(p -> new EtcdBinary(p, "etcd on the PATH (the project's bin/etcd was not found)"))
                .orElseThrow(() -> new LauncherException("no etcd binary found: the project's bin/etcd does not "
                        + "exist and there is no etcd on the PATH; use --etcd-binary, ETCD_BIN or etcd: in the cluster file"));
    }

    private static EtcdBinary check(Path path, String origin) {
        if (!Files.exists(path)) {
            throw new LauncherException("etcd binary " + path + " (from " + origin + ") does not exist");
        }
        if (!Files.isRegularFile(path) || !Files.isExecutable(path)) {
            throw new LauncherException("etcd binary " + path + " (from " + origin + ") is not an executable file");
        }
        return new EtcdBinary(path, origin);
    }

    private static Optional<Path> onPath(String program, Map<String, String> env) {
        String pathVar = env.getOrDefault("PATH", "");
        for (String dir : pathVar.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, program);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
