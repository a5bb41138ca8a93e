package io.etcdj.ctl.command;

import io.etcdj.ctl.cli.CtlContext;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;

/**
 * Runs a user command for watch and lock exec modes, copying its output to the command's own streams
 * (so in-process runs and the shell capture it like any other output).
 */
final class ChildProcess {

    private ChildProcess() {
    }

    /** Runs the command to completion and returns its exit code. */
    static int run(CtlContext ctx, List<String> command, Map<String, String> extraEnv) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.INHERIT);
        pb.environment().putAll(extraEnv);
        Process p = pb.start();
        Thread err = pump(p.getErrorStream(), ctx.err());
        p.getInputStream().transferTo(ctx.out().stream());
        ctx.out().stream().flush();
        try {
            int code = p.waitFor();
            err.join();
            return code;
        } catch (InterruptedException e) {
            p.destroy();
            Thread.currentThread().interrupt();
            return 1;
        }
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
