package io.etcdj.cli.progress;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether this process talks to a person: its stdin, stdout and stderr are all terminals. Java
 * has no isatty; on Linux each descriptor's link under /proc/self/fd names its device, and a
 * terminal is a pseudo-terminal ({@code /dev/pts/N}) or a console ({@code /dev/ttyN},
 * {@code /dev/console}). Where /proc is missing the answer is no, so a progress line is never
 * drawn into a file or pipe by mistake.
 */
public final class Terminals {

    private Terminals() {
    }

    /** True when descriptors 0, 1 and 2 are all terminals. */
    public static boolean interactive() {
        return isTerminal(0) && isTerminal(1) && isTerminal(2);
    }

    /**
     * Whether a command writing to {@code out} and {@code err} may draw a progress line: they are this
     * process's own stdout and stderr (not a warm server's streams of some caller), stdin, stdout and
     * stderr are all terminals, and the output is not meant for programs ({@code json}: -w json).
     * The one rule every tool follows, so scripts never see a progress line.
     */
    public static boolean progressShown(PrintStream out, PrintStream err, boolean json) {
        return out == System.out && err == System.err && !json && interactive();
    }

    static boolean isTerminal(int fd) {
        try {
            return isTerminalDevice(Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString());
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }

    /** Whether a device path names a terminal (a pseudo-terminal, a virtual or serial console). */
    static boolean isTerminalDevice(String device) {
        return device.startsWith("/dev/pts/") || device.startsWith("/dev/tty") || device.equals("/dev/console");
    }
}
