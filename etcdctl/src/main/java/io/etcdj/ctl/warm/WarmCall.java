package io.etcdj.ctl.warm;

import io.etcdj.ctl.RootCommand;
import io.etcdj.ctl.cli.EtcdctlApp;
import io.etcdj.ctl.cli.Interruption;
import io.etcdj.ctl.cli.OwnProcessRequired;
import io.etcdj.etcdutl.Main;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.channels.SocketChannel;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One client connection: reads the call, runs the command line on a thread of its own with the
 * caller's arguments, environment, working directory and streams, and ends with the exit code.
 * Meanwhile it forwards the caller's stdin answers and signals; a signal (or the client going away)
 * ends the command the way the signal ends a direct run: a command that took the signal answers it
 * (lock and elect release or cancel their wait and exit as etcdctl does); any other command's output
 * stops and the exit code is 128 + the signal number.
 */
final class WarmCall implements Runnable {

    /** How long a signalled command may take to finish on its own before it is interrupted. */
    private static final long GRACE_MILLIS = 1000;

    private final SocketChannel channel;
    private final WarmServer server;
    /** Set by whoever ends the call: the command's own last frame, a signal's, or the client being gone. */
    private final AtomicBoolean ended = new AtomicBoolean();
    /**
     * Counted down once the last frame is out (or the client is gone). The reader closes the channel
     * only after it: closing as soon as the call had ended cut off an exit code still on its way.
     */
    private final CountDownLatch lastFrameOut = new CountDownLatch(1);
    /** The signal that ended the call, 0 while none did: it decides the exit code, not the command. */
    private volatile int killedBy;

    WarmCall(SocketChannel channel, WarmServer server) {
        this.channel = channel;
        this.server = server;
    }

    @Override
    public void run() {
        try (channel; ChannelStreams.Output sink = ChannelStreams.out(channel)) {
            DataInputStream in = new DataInputStream(new BufferedInputStream(ChannelStreams.in(channel)));
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(sink));
            Frames.Frame first = Frames.read(in);
            if (first == null || first.type() != Frames.HEADER) {
                return;
            }
            CallHeader call = CallHeader.parse(first.payload());
            if (server.outdatedFor(call.java())) {
                // Free the socket first, so the successor the client starts can take it at once.
                server.retire();
                Frames.writeInt(out, Frames.STALE, 0);
                return;
            }
            Frames.write(out, Frames.STARTED, new byte[0], 0, 0);
            serve(call, in, out);
        } catch (IOException e) {
            // The client went away or spoke garbage: nothing to answer.
        } finally {
            server.callEnded();
        }
    }

    private void serve(CallHeader call, DataInputStream in, DataOutputStream out) throws IOException {
        CallOutput.Held held = new CallOutput.Held(out);
        CallOutput stdout = new CallOutput(held, Frames.STDOUT);
        CallOutput stderr = new CallOutput(held, Frames.STDERR);
        Charset charset = Charset.defaultCharset();
        PrintStream ps = new PrintStream(new BufferedOutputStream(stdout, 8192), true, charset);
        PrintStream pe = new PrintStream(new BufferedOutputStream(stderr, 8192), true, charset);
        RemoteStdin stdin = new RemoteStdin(out);
        Interruption.Stop stop = new Interruption.Stop();
        AtomicBoolean live = new AtomicBoolean(true);
        Thread worker = new Thread(() -> {
            Interruption.bind(stop);
            StdioRouter.bind(new StdioRouter.Target(ps, live::get), new StdioRouter.Target(pe, live::get));
            int type = Frames.EXIT;
            int code;
            try {
                code = runTool(call, ps, pe, stdin, held::release);
                ps.flush();
                pe.flush();
                held.release();
            } catch (OwnProcessRequired e) {
                stdout.discard();
                stderr.discard();
                type = Frames.OWN_PROCESS;
                code = 0;
            } catch (IOException | RuntimeException | LinkageError e) {
                // A direct run would die with a trace here; the caller gets one line and exit code 1.
                pe.println("Error: " + e);
                pe.flush();
                code = 1;
            } finally {
                stop.commandKnown(false); // a signal waiting for a command that never came ends the call
                live.set(false);
            }
            finish(out, type, killedBy > 0 ? 128 + killedBy : code);
        }, "call");
        worker.setDaemon(true);
        worker.start();
        while (true) {
            Frames.Frame f;
            try {
                f = Frames.read(in);
            } catch (IOException reset) {
                // a client killed while output was on its way resets the connection instead of
                // closing it: it is just as gone
                f = null;
            }
            if (f == null) {
                // The client is gone (killed, or it ended after the exit frame): end the command.
                signalled(worker, stop, stdout, stderr, out, 1, false);
                awaitLastFrame();
                return;
            }
            if (f.type() == Frames.STDIN) {
                stdin.answer(f.payload());
            } else if (f.type() == Frames.SIGNAL && f.payload().length == 1) {
                signalled(worker, stop, stdout, stderr, out, f.payload()[0] & 0xff, true);
                awaitLastFrame();
                return;
            }
        }
    }

    private void awaitLastFrame() {
        boolean interrupted = false;
        while (true) {
            try {
                lastFrameOut.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void signalled(Thread worker, Interruption.Stop stop, CallOutput stdout, CallOutput stderr,
            DataOutputStream out, int signal, boolean answer) {
        if (ended.get()) {
            return;
        }
        if (answer && stop.taken(signal)) {
            // the command answers the signal itself (lock unlocks and exits 0, a canceled wait says
            // "context canceled" and exits 1), as etcdctl does in a process of its own
            stop.fire();
            try {
                worker.join(GRACE_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (ended.get()) {
                return;
            }
        }
        killedBy = signal;
        stdout.mute();
        stderr.mute();
        stop.fire();
        try {
            worker.join(GRACE_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        worker.interrupt();
        if (answer) {
            // A JVM ended by a signal exits with 128 + its number after its shutdown hooks.
            finish(out, Frames.EXIT, 128 + signal);
        } else if (ended.compareAndSet(false, true)) {
            lastFrameOut.countDown();
        }
    }

    private void finish(DataOutputStream out, int type, int code) {
        if (!ended.compareAndSet(false, true)) {
            return;
        }
        try {
            Frames.writeInt(out, type, code);
            channel.shutdownOutput();
        } catch (IOException e) {
            // The client is gone; its exit code no longer matters.
        } finally {
            lastFrameOut.countDown();
        }
    }

    private static int runTool(CallHeader call, PrintStream out, PrintStream err, RemoteStdin in, Releaser release)
            throws IOException {
        String[] args = call.args().toArray(new String[0]);
        boolean terminal = call.stdinTty() && call.stdoutTty();
        if ("etcdutl".equals(call.tool())) {
            if (!Placement.etcdutlRunsHere(call.args(), terminal)) {
                throw new OwnProcessRequired();
            }
            release.release();
            Interruption.commandKnown(false); // etcdutl takes no signal
            return Main.run(args, out, err);
        }
        EtcdctlApp app = new EtcdctlApp(RootCommand::tree, (command, ctx) -> {
            if (!Placement.etcdctlRunsHere(command, ctx, terminal)) {
                return false;
            }
            try {
                release.release();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return true;
        });
        return app.run(args, out, err, in, call.env(), Path.of(call.cwd()));
    }

    /** Lets held output through once the command is known to run here. */
    @FunctionalInterface
    private interface Releaser {
        void release() throws IOException;
    }
}
