package io.etcdj.server.arch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * docs/server.md's package table ("package | owns | must not touch"), read as the reader sees
 * it: a row's name is its first cell as written (e.g. {@code `read`, `wait`}), its packages the
 * names in backquotes in that cell.
 */
final class PackageTable {
    static final String HEADER = "| package | owns | must not touch |";
    private static final Pattern QUOTED = Pattern.compile("`([^`]+)`");

    /** A row: its first cell, the packages it names, its "must not touch" cell. */
    record Row(String name, Set<String> packages, String mustNotTouch) {
    }

    private PackageTable() {
    }

    static List<Row> read(Path serverMd) {
        List<String> lines;
        try {
            lines = Files.readAllLines(serverMd);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int header = lines.indexOf(HEADER);
        if (header < 0) {
            throw new IllegalStateException(serverMd + " has no package table (a line " + HEADER + ")");
        }
        List<Row> rows = new ArrayList<>();
        // the header, the |---| line, then rows up to the first line that is not one
        for (int i = header + 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
            String[] cells = lines.get(i).split("\\|", -1);
            if (cells.length != 5) {
                throw new IllegalStateException(serverMd + ":" + (i + 1) + ": a row needs three cells: " + lines.get(i));
            }
            String name = cells[1].trim();
            Set<String> packages = new LinkedHashSet<>();
            Matcher m = QUOTED.matcher(name);
            while (m.find()) {
                packages.add(m.group(1));
            }
            rows.add(new Row(name, packages, cells[3].trim()));
        }
        return rows;
    }

    /** The table's name of the package {@code javaPackage} is in: api, raft, io.etcdj.server (Main's). */
    static String topLevelPackage(String javaPackage) {
        if (javaPackage.equals("io.etcdj.raft") || javaPackage.startsWith("io.etcdj.raft.")) {
            return "raft";
        }
        if (javaPackage.equals("io.etcdj.server")) {
            return javaPackage;
        }
        String rest = javaPackage.substring("io.etcdj.server.".length());
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }
}
