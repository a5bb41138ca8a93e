package io.etcdj.cli.progress;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

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

    /**
     * The columns of this process's controlling terminal ({@code /dev/tty}), whatever its standard
     * streams are; 0 when it has none or its size is not known (a pseudo-terminal nobody sized).
     * Go's progress-bar library used by etcdctl's check commands sizes its bar this way, so the bar
     * appears even in a file written from an interactive shell. Asked of {@code stty size}: Java has
     * no ioctl.
     */
    public static int controllingTerminalColumns() {
        try {
            Process stty = new ProcessBuilder("stty", "size").redirectInput(new File("/dev/tty"))
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String size = new String(stty.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
            if (!stty.waitFor(5, TimeUnit.SECONDS) || stty.exitValue() != 0) {
                stty.destroyForcibly();
                return 0;
            }
            return columns(size);
        } catch (IOException e) {
            return 0; // no controlling terminal: /dev/tty cannot be opened
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    /** The columns of {@code stty size}'s answer ("rows columns"), 0 if it is not that. */
    static int columns(String sttySize) {
        String[] parts = sttySize.trim().split("\\s+");
        if (parts.length != 2) {
            return 0;
        }
        try {
            return Math.max(0, Integer.parseInt(parts[1]));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    static boolean isTerminal(int fd) {
        try {
            return isTerminalDevice(Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString());
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            // no /proc/self/fd link to read (not Linux, a closed descriptor, no permission): draw nothing
            return false;
        }
    }

    /** Whether a device path names a terminal (a pseudo-terminal, a virtual or serial console). */
    static boolean isTerminalDevice(String device) {
        return device.startsWith("/dev/pts/") || device.startsWith("/dev/tty") || device.equals("/dev/console");
    }
}
