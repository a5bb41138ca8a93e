package io.etcdj.launcher.supervisor;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.etcdj.launcher.LauncherException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/** Reads and atomically rewrites the JSON state file. */
public final class StateFile {
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private final Path path;

    public StateFile(Path path) {
        this.path = path;
    }

    public Path path() {
        return path;
    }

    public Optional<ClusterState> read() {
        if (!Files.exists(path)) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readValue(path.toFile(), ClusterState.class));
        } catch (IOException e) {
            throw new LauncherException("cannot read state file " + path + ": " + e.getMessage());
        }
    }

    /** Writes to a temporary file and renames it, so readers never see half a file. */
    public void write(ClusterState state) {
        Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
        try {
            Files.createDirectories(path.getParent());
            JSON.writeValue(tmp.toFile(), state);
            Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new LauncherException("cannot write state file " + path + ": " + e.getMessage());
        }
    }

    public void delete() {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new LauncherException("cannot delete state file " + path + ": " + e.getMessage());
        }
    }
}
