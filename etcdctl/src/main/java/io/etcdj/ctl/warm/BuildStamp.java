package io.etcdj.ctl.warm;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What the server's code came from: every class path entry, the directories holding them (a jar
 * added or removed changes them) and the JDK's module image, each with its modification time and
 * size. A server whose stamp no longer matches the files serves stale code and must go.
 */
final class BuildStamp {

    private final Map<Path, String> seen;

    private BuildStamp(Map<Path, String> seen) {
        this.seen = seen;
    }

    static BuildStamp capture() {
        Set<Path> files = new LinkedHashSet<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (entry.isEmpty()) {
                continue;
            }
            Path p = Path.of(entry).toAbsolutePath();
            files.add(p);
            if (p.getParent() != null) {
                files.add(p.getParent());
            }
        }
        files.add(Path.of(System.getProperty("java.home"), "lib", "modules"));
        Map<Path, String> seen = new LinkedHashMap<>();
        for (Path f : files) {
            seen.put(f, describe(f));
        }
        return new BuildStamp(seen);
    }

    /** True when any recorded file changed, appeared or went away since {@link #capture()}. */
    boolean changed() {
        for (Map.Entry<Path, String> e : seen.entrySet()) {
            if (!Objects.equals(e.getValue(), describe(e.getKey()))) {
                return true;
            }
        }
        return false;
    }

    private static String describe(Path f) {
        try {
            BasicFileAttributes a = Files.readAttributes(f, BasicFileAttributes.class);
            return a.lastModifiedTime().toMillis() + "/" + (a.isDirectory() ? -1 : a.size());
        } catch (IOException e) {
            return "missing";
        }
    }
}
