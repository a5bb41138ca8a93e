package io.etcdj.ctl.warm;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * One of a call's output streams (stdout or stderr) as frames to the client. Until the command is
 * known to run here, output is held back: if the call is handed back to run in a process of its own,
 * nothing of it may have reached the caller (the direct run prints it again). Both streams of a call
 * hold into one {@link Held}, which lets their output through in the order it was written, as a
 * terminal showing both would have shown it. After the caller was signalled the stream is muted, as
 * a direct run's output ends when its JVM exits.
 */
final class CallOutput extends OutputStream {

    /** What a call's streams wrote while held, in the order written; shared by its stdout and stderr. */
    static final class Held {
        private final DataOutputStream socket;
        private List<Chunk> chunks = new ArrayList<>();

        Held(DataOutputStream socket) {
            this.socket = socket;
        }

        /** Sends what was held, in order, and lets everything on from now. */
        void release() throws IOException {
            synchronized (socket) {
                List<Chunk> c = chunks;
                chunks = null;
                if (c == null) {
                    return;
                }
                for (Chunk chunk : c) {
                    if (!chunk.stream().muted) {
                        Frames.write(socket, chunk.stream().type, chunk.bytes(), 0, chunk.bytes().length);
                    }
                }
            }
        }

        /** Drops what was held. */
        void discard() {
            synchronized (socket) {
                chunks = null;
            }
        }
    }

    private record Chunk(CallOutput stream, byte[] bytes) {
    }

    private final Held held;
    private final int type;
    private volatile boolean muted;

    CallOutput(Held held, int type) {
        this.held = held;
        this.type = type;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (muted || len == 0) {
            return;
        }
        synchronized (held.socket) {
            if (held.chunks != null) {
                ByteArrayOutputStream copy = new ByteArrayOutputStream(len);
                copy.write(b, off, len);
                held.chunks.add(new Chunk(this, copy.toByteArray()));
                return;
            }
            Frames.write(held.socket, type, b, off, len);
        }
    }

    /** Drops what was held (of both streams) and anything this stream writes later. */
    void discard() {
        muted = true;
        held.discard();
    }

    void mute() {
        muted = true;
    }
}
