package io.etcdj.ctl.warm;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * One of a call's output streams (stdout or stderr) as frames to the client. Until the command is
 * known to run here, output is held back: if the call is handed back to run in a process of its own,
 * nothing of it may have reached the caller (the direct run prints it again). After the caller was
 * signalled the stream is muted, as a direct run's output ends when its JVM exits.
 */
final class CallOutput extends OutputStream {

    private final DataOutputStream socket;
    private final int type;
    private ByteArrayOutputStream held = new ByteArrayOutputStream();
    private volatile boolean muted;

    CallOutput(DataOutputStream socket, int type) {
        this.socket = socket;
        this.type = type;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
        if (muted || len == 0) {
            return;
        }
        if (held != null) {
            held.write(b, off, len);
            return;
        }
        Frames.write(socket, type, b, off, len);
    }

    /** Sends what was held and passes everything on from now. */
    synchronized void release() throws IOException {
        ByteArrayOutputStream h = held;
        held = null;
        if (h != null && h.size() > 0 && !muted) {
            Frames.write(socket, type, h.toByteArray(), 0, h.size());
        }
    }

    /** Drops what was held and anything written later. */
    synchronized void discard() {
        held = null;
        muted = true;
    }

    void mute() {
        muted = true;
    }
}
