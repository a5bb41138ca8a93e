package io.etcdj.ctl.it;

import io.etcdj.harness.Command;
import io.etcdj.harness.RunningCommand;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * A user at a shell: one POSIX {@code sh} whose stdin, stdout and stderr are a pseudo-terminal
 * (util-linux {@code script}), into which command lines are typed one after another. Each command
 * line runs as a person's would (the terminal's foreground job, its output through the terminal's
 * line discipline) between markers the shell prints, so one session serves many steps and still
 * tells each step's screen and exit code apart. Whatever a step typed and its command left unread
 * is discarded before the next step, so it cannot reach the next command. The terminal echoes
 * nothing while the shell waits for a command line: a command line and the input typed ahead with
 * it are received then, so their echo (which the kernel may write late, after the step's first
 * output) never mixes into a step's screen; each command runs with the terminal's settings as they
 * were at the start, echo included.
 */
final class TerminalSession implements AutoCloseable {

    /** A byte no etcdctl output holds: it starts the shell's markers. */
    private static final byte MARK = 0x1e;
    private static final String EOF = "\u0004";
    private static final String CTRL_C = "\u0003";

    private final RunningCommand shell;
    private int seen;

    /** What one command line showed on the terminal (stdout and stderr as they interleaved) and its exit code. */
    record Screen(byte[] bytes, int code) {
        /** The screen with the terminal's {@code \r\n} turned back into what the command wrote. */
        byte[] written() {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (int i = 0; i < bytes.length; i++) {
                if (!(bytes[i] == '\r' && i + 1 < bytes.length && bytes[i + 1] == '\n')) {
                    out.write(bytes[i]);
                }
            }
            return out.toByteArray();
        }

        String text() {
            return new String(written(), StandardCharsets.UTF_8);
        }
    }

    /** Starts the shell with {@code env} as its whole environment. */
    TerminalSession(Map<String, String> env) throws IOException, InterruptedException {
        Map<String, String> whole = new HashMap<>(env);
        whole.remove("ENV");
        whole.put("SHELL", "/bin/sh");
        whole.put("PS1", "");
        whole.put("PS2", "");
        shell = Command.atTerminal("exec sh").withoutEnvIf(name -> true).env(whole).start();
        // the terminal as it was (echo on) for the commands; echo off only while the shell waits for a line
        type("saved=$(stty -g); stty -echo; printf '\\036R\\n'\n");
        if (awaitReady(30) < 0) {
            throw new IOException("the shell at the terminal did not start: " + shown(0));
        }
    }

    /**
     * Types {@code commandLine} at the prompt and, at once (as a person typing ahead), {@code input}
     * followed by end of file (Ctrl-D) unless {@code inputStaysOpen}; returns once the command line ended. A command still running
     * after {@code timeoutSeconds} gets Ctrl-C, and its screen says so.
     */
    Screen run(String commandLine, String input, boolean inputStaysOpen, long timeoutSeconds)
            throws IOException, InterruptedException {
        int from = seen;
        StringBuilder keys = new StringBuilder("stty \"$saved\"; printf '\\036S\\n'; ").append(commandLine)
                .append("; printf '\\036E%d\\n' $?; stty -icanon min 0 time 0; cat >/dev/null; stty \"$saved\";"
                        + " stty -echo; printf '\\036R\\n'\n");
        if (!input.isEmpty()) {
            // A line typed without its newline needs one Ctrl-D to be read and another for end of file.
            keys.append(input).append(inputStaysOpen ? "" : input.endsWith("\n") ? EOF : EOF + EOF);
        }
        type(keys.toString());
        int end = awaitReady(timeoutSeconds);
        String note = "";
        if (end < 0) {
            type(CTRL_C);
            note = "[still running after " + timeoutSeconds + " s: Ctrl-C]";
            end = awaitReady(10);
            if (end < 0) {
                throw new IOException("the terminal hangs: " + shown(from));
            }
        }
        byte[] all = Arrays.copyOfRange(shell.stdoutBytes(), from, end);
        int start = indexOf(all, new byte[] {MARK, 'S', '\r', '\n'}, 0);
        int exit = indexOf(all, new byte[] {MARK, 'E'}, Math.max(start, 0));
        if (start < 0 || exit < 0) {
            throw new IOException("no markers on the terminal: " + new String(all, StandardCharsets.UTF_8));
        }
        int eol = indexOf(all, new byte[] {'\r', '\n'}, exit);
        int code = Integer.parseInt(new String(all, exit + 2, eol - exit - 2, StandardCharsets.US_ASCII));
        byte[] shown = Arrays.copyOfRange(all, start + 4, exit);
        if (!note.isEmpty()) {
            byte[] n = note.getBytes(StandardCharsets.UTF_8);
            shown = Arrays.copyOf(shown, shown.length + n.length);
            System.arraycopy(n, 0, shown, shown.length - n.length, n.length);
        }
        return new Screen(shown, code);
    }

    /**
     * The screen without our progress lines (beyond etcd): each drawing ({@code \r\033[K} and the
     * line's text) is erased by the next {@code \r\033[K} before anything else is printed, so what
     * stays on the screen is the text around them. etcdctl never writes {@code \033[K}.
     */
    static String withoutProgressLines(String screen) {
        return screen.replaceAll("\r\033\\[K[^\r\n]*(?=\r\033\\[K)", "").replace("\r\033[K", "");
    }

    private void type(String keys) throws IOException {
        if (!shell.type(keys)) {
            throw new IOException("the shell at the terminal ended: " + shown(0));
        }
    }

    /** Waits for the shell's ready marker after what was seen so far; its end, or -1. */
    private int awaitReady(long seconds) throws InterruptedException {
        byte[] ready = {MARK, 'R', '\r', '\n'};
        int from = seen;
        if (!shell.awaitStdoutBytes(Duration.ofSeconds(seconds), all -> indexOf(all, ready, from) >= 0)) {
            return -1;
        }
        int at = indexOf(shell.stdoutBytes(), ready, from);
        seen = at + ready.length;
        return at;
    }

    private String shown(int from) {
        byte[] all = shell.stdoutBytes();
        return new String(all, from, all.length - from, StandardCharsets.UTF_8);
    }

    private static int indexOf(byte[] in, byte[] what, int from) {
        outer:
        for (int i = Math.max(0, from); i <= in.length - what.length; i++) {
            for (int j = 0; j < what.length; j++) {
                if (in[i + j] != what[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    @Override
    public void close() throws InterruptedException {
        shell.type("exit\n");
        if (!shell.endsWithin(Duration.ofSeconds(10))) {
            shell.kill();
        }
        shell.close();
    }
}
