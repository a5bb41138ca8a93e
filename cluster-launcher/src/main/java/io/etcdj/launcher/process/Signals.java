package io.etcdj.launcher.process;

import io.etcdj.launcher.LauncherException;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Signals Java has no API for. SIGTERM and SIGKILL go through {@link ProcessHandle}; SIGSTOP
 * and SIGCONT need the {@code kill} command.
 */
public final class Signals {
    private Signals() {}

    public static void stop(long pid) {
        send("-STOP", pid);
    }

    public static void cont(long pid) {
        send("-CONT", pid);
    }

    private static void send(String signal, long pid) {
        try {
            Process p = new ProcessBuilder("kill", signal, Long.toString(pid))
                    .redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes()).strip();
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new LauncherException("kill " + signal + " " + pid + " failed: " + output);
            }
        } catch (IOException e) {
            throw new LauncherException("cannot run kill " + signal + " " + pid + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LauncherException("interrupted while signalling " + pid);
        }
    }
}
