package io.etcdj.ctl.command;

import io.etcdj.cli.GoQuote;
import io.etcdj.ctl.cli.CtlContext;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs a user command for watch and lock exec modes as etcdctl 3.4 runs it: standard input from
 * /dev/null, the process's own stdout and stderr (so a command at a terminal sees the terminal),
 * and the caller's environment plus the mode's variables. Where the command's output must be
 * captured (in-process runs, the shell) it is copied to the command's own streams instead.
 */
final class ChildProcess {

    private static final File NULL = new File("/dev/null");
    private static final Pattern JAVA_START_ERROR = Pattern.compile("error=\\d+, (.*)$");
    /** Go's names of Linux signals 1 to 31 (syscall.Signal.String). */
    private static final String[] SIGNALS = {"hangup", "interrupt", "quit", "illegal instruction",
        "trace/breakpoint trap", "aborted", "bus error", "floating point exception", "killed", "user defined signal 1",
        "segmentation fault", "user defined signal 2", "broken pipe", "alarm clock", "terminated", "stack fault",
        "child exited", "continued", "stopped (signal)", "stopped", "stopped (tty input)", "stopped (tty output)",
        "urgent I/O condition", "CPU time limit exceeded", "file size limit exceeded", "virtual timer expired",
        "profiling timer expired", "window changed", "I/O possible", "power failure", "bad system call"};

    private ChildProcess() {
    }

    /** Runs the command to completion and returns its exit code (128 + N when signal N ended it). */
    static int run(CtlContext ctx, List<String> command, Map<String, String> extraEnv) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectInput(NULL);
        pb.environment().putAll(extraEnv);
        boolean ownStreams = ctx.out().stream() == System.out && ctx.err() == System.err;
        if (ownStreams) {
            System.out.flush();
            System.err.flush();
            pb.redirectOutput(ProcessBuilder.Redirect.INHERIT).redirectError(ProcessBuilder.Redirect.INHERIT);
        }
        Process p = pb.start();
        Thread err = null;
        if (!ownStreams) {
            err = pump(p.getErrorStream(), ctx.err());
            p.getInputStream().transferTo(ctx.out().stream());
            ctx.out().stream().flush();
        }
        try {
            int code = p.waitFor();
            if (err != null) {
                err.join();
            }
            return code;
        } catch (InterruptedException e) {
            p.destroy();
            Thread.currentThread().interrupt();
            return 1;
        }
    }

    /**
     * Go's text for a command that exited with {@code code}: {@code exit status N}, or {@code signal:
     * <name>} for 129 to 159 (a JVM sees a signal's end as 128 + N, as a shell does).
     */
    static String exitText(int code) {
        if (code > 128 && code <= 128 + SIGNALS.length) {
            return "signal: " + SIGNALS[code - 129];
        }
        return "exit status " + code;
    }

    /**
     * Go's text for a command that could not start: {@code exec: "name": executable file not found in
     * $PATH} for a name looked up in PATH, else {@code fork/exec path: <errno text>}.
     */
    static String startError(String name, IOException e) {
        if (!name.contains("/")) {
            return "exec: " + GoQuote.quote(name.getBytes(StandardCharsets.UTF_8))
                    + ": executable file not found in $PATH";
        }
        Matcher m = JAVA_START_ERROR.matcher(String.valueOf(e.getMessage()));
        String errno = m.find() ? m.group(1) : String.valueOf(e.getMessage());
        if (!errno.isEmpty()) {
            errno = Character.toLowerCase(errno.charAt(0)) + errno.substring(1);
        }
        return "fork/exec " + name + ": " + errno;
    }

    /** Go's %q of a []string: {@code ["sh" "-c" "echo"]}. */
    static String quoteList(List<String> words) {
        StringBuilder s = new StringBuilder("[");
        for (String w : words) {
            s.append(s.length() == 1 ? "" : " ")
                    .append(GoQuote.quote(w.getBytes(StandardCharsets.UTF_8)));
        }
        return s.append(']').toString();
    }

    private static Thread pump(InputStream in, OutputStream out) {
        Thread t = new Thread(() -> {
            try {
                in.transferTo(out);
                out.flush();
            } catch (IOException ignored) {
                // The child closed its stream.
            }
        }, "child-stderr");
        t.setDaemon(true);
        t.start();
        return t;
    }
}
