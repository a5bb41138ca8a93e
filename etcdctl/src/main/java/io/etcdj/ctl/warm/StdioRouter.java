package io.etcdj.ctl.warm;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.function.BooleanSupplier;

/**
 * System.out and System.err of the server, routed per call. Commands print to the streams they are
 * given, but a library may still use System.out/err; the bytes then go to the call whose thread (or
 * a thread it started) wrote them, so concurrent calls never mix, and to the server's own stream
 * (its log) when no live call owns the thread, e.g. a pool thread a finished call once started.
 */
final class StdioRouter extends OutputStream {

    /** A call's stream and whether the call is still running. */
    record Target(OutputStream stream, BooleanSupplier live) {
    }

    private final OutputStream fallback;
    private final InheritableThreadLocal<Target> current = new InheritableThreadLocal<>();

    private static final StdioRouter OUT = new StdioRouter(System.out);
    private static final StdioRouter ERR = new StdioRouter(System.err);

    private StdioRouter(OutputStream fallback) {
        this.fallback = fallback;
    }

    /** Replaces System.out and System.err with the routers; once, at server start. */
    static void install() {
        System.setOut(new PrintStream(OUT, true));
        System.setErr(new PrintStream(ERR, true));
    }

    /** Routes this thread's (and its future children's) System.out/err to a call's streams. */
    static void bind(Target out, Target err) {
        OUT.current.set(out);
        ERR.current.set(err);
    }

    private OutputStream target() {
        Target t = current.get();
        return t != null && t.live().getAsBoolean() ? t.stream() : fallback;
    }

    @Override
    public void write(int b) throws IOException {
        target().write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        target().write(b, off, len);
    }

    @Override
    public void flush() throws IOException {
        target().flush();
    }
}
