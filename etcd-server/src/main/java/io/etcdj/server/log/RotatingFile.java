package io.etcdj.server.log;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

/**
 * A log file rotated as etcd's (lumberjack's): a write that would take the file past
 * {@code maxSize} moves it aside as {@code <name>-<time>.<ext>} (time
 * {@code 2006-01-02T15-04-05.000}, UTC unless {@code localTime}) and starts a new one; then
 * rotated files are gzipped ({@code compress}), and those beyond {@code maxBackups} or older
 * than {@code maxAgeDays} removed (0: no limit).
 */
final class RotatingFile extends OutputStream {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH-mm-ss.SSS");
    private static final long MEGABYTE = 1024 * 1024;

    private final Path file;
    private final long maxSize;
    private final long maxAgeDays;
    private final long maxBackups;
    private final boolean localTime;
    private final boolean compress;
    private OutputStream out;
    private long size;

    RotatingFile(Path file, Rotation r) throws IOException {
        this.file = file.toAbsolutePath();
        this.maxSize = (r.maxSizeMegabytes() == 0 ? 100 : r.maxSizeMegabytes()) * MEGABYTE;
        this.maxAgeDays = r.maxAgeDays();
        this.maxBackups = r.maxBackups();
        this.localTime = r.localTime();
        this.compress = r.compress();
        open();
    }

    private void open() throws IOException {
        Files.createDirectories(file.getParent());
        out = new FileOutputStream(file.toFile(), true);
        size = Files.size(file);
    }

    @Override
    public synchronized void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
        if (size + len > maxSize && size > 0) {
            rotate();
        }
        out.write(b, off, len);
        size += len;
    }

    @Override
    public synchronized void flush() throws IOException {
        out.flush();
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }

    private void rotate() throws IOException {
        out.close();
        Files.move(file, backupName(Instant.now()));
        open();
        cleanUp();
    }

    Path backupName(Instant when) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String base = dot > 0 ? name.substring(0, dot) : name;
        String ext = dot > 0 ? name.substring(dot) : "";
        LocalDateTime t = LocalDateTime.ofInstant(when, localTime ? ZoneId.systemDefault() : ZoneOffset.UTC);
        return file.resolveSibling(base + "-" + STAMP.format(t) + ext);
    }

    /** Rotated files, newest first (their names sort by time). */
    private List<Path> backups() throws IOException {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String prefix = (dot > 0 ? name.substring(0, dot) : name) + "-";
        try (Stream<Path> files = Files.list(file.getParent())) {
            List<Path> out = new ArrayList<>(files.filter(p -> !p.equals(file)
                    && p.getFileName().toString().startsWith(prefix)).toList());
            out.sort(Comparator.comparing((Path p) -> p.getFileName().toString()).reversed());
            return out;
        }
    }

    private void cleanUp() throws IOException {
        List<Path> backups = backups();
        Instant cutoff = Instant.now().minusSeconds(maxAgeDays * 86_400);
        for (int k = 0; k < backups.size(); k++) {
            Path p = backups.get(k);
            boolean tooMany = maxBackups > 0 && k >= maxBackups;
            boolean tooOld = maxAgeDays > 0 && Files.getLastModifiedTime(p).toInstant().isBefore(cutoff);
            if (tooMany || tooOld) {
                Files.deleteIfExists(p);
            } else if (compress && !p.toString().endsWith(".gz")) {
                gzip(p);
            }
        }
    }

    private static void gzip(Path p) throws IOException {
        Path gz = p.resolveSibling(p.getFileName() + ".gz");
        try (InputStream in = Files.newInputStream(p); OutputStream o = new GZIPOutputStream(Files.newOutputStream(gz))) {
            in.transferTo(o);
        }
        Files.delete(p);
    }
}
