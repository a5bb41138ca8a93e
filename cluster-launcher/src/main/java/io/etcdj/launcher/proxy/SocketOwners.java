package io.etcdj.launcher.proxy;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds which member opened a connection to a proxy, so a partition can cut a member's outgoing
 * links as well as its incoming ones. All members dial from 127.0.0.1, so the source port is the
 * only clue: Linux's /proc/net/tcp maps it to a socket inode, and /proc/PID/fd shows which member
 * process holds that inode. Where /proc is missing the source stays unknown and only the
 * destination's rules apply.
 */
public final class SocketOwners {
    private static final Path PROC = Path.of("/proc");

    private SocketOwners() {}

    /**
     * The member (from {@code pidsByMember}) owning the socket whose local port is
     * {@code sourcePort} and remote port is {@code proxyPort}.
     */
    public static Optional<String> ownerOf(int sourcePort, int proxyPort, Map<String, Long> pidsByMember) {
        Optional<String> inode = inodeOf(sourcePort, proxyPort);
        if (inode.isEmpty()) {
            return Optional.empty();
        }
        String target = "socket:[" + inode.get() + "]";
        for (Map.Entry<String, Long> e : pidsByMember.entrySet()) {
            if (holds(e.getValue(), target)) {
                return Optional.of(e.getKey());
            }
        }
        return Optional.empty();
    }

    static Optional<String> inodeOf(int localPort, int remotePort) {
        for (String table : List.of("net/tcp", "net/tcp6")) {
            Path file = PROC.resolve(table);
            if (!Files.isReadable(file)) {
                continue;
            }
            try {
                for (String line : Files.readAllLines(file)) {
                    Optional<String> inode = matchLine(line, localPort, remotePort);
                    if (inode.isPresent()) {
                        return inode;
                    }
                }
            } catch (IOException ignored) {
                // Treated like a missing /proc: the source stays unknown.
            }
        }
        return Optional.empty();
    }

    /** Parses one /proc/net/tcp row: "sl local_address rem_address st ... uid timeout inode". */
    static Optional<String> matchLine(String line, int localPort, int remotePort) {
        String[] f = line.trim().split("\\s+");
        if (f.length < 10 || !f[1].contains(":") || !f[2].contains(":")) {
            return Optional.empty();
        }
        try {
            int local = Integer.parseInt(f[1].substring(f[1].lastIndexOf(':') + 1), 16);
            int remote = Integer.parseInt(f[2].substring(f[2].lastIndexOf(':') + 1), 16);
            if (local == localPort && remote == remotePort) {
                return Optional.of(f[9]);
            }
        } catch (NumberFormatException ignored) {
            // the header line
        }
        return Optional.empty();
    }

    private static boolean holds(long pid, String socketLink) {
        Path fds = PROC.resolve(Long.toString(pid)).resolve("fd");
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(fds)) {
            for (Path fd : stream) {
                try {
                    if (Files.readSymbolicLink(fd).toString().equals(socketLink)) {
                        return true;
                    }
                } catch (IOException ignored) {
                    // the descriptor closed while we looked
                }
            }
        } catch (IOException ignored) {
            // the process is gone or not ours to inspect
        }
        return false;
    }
}
