package io.etcdj.ctl.warm;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;

/**
 * The socket protocol shared with bin/warm-client.c. Every message is a frame: one type byte, a
 * big-endian 32-bit length, then that many bytes.
 *
 * <p>Client to server: {@link #HEADER} once (the call), then {@link #STDIN} (an answer to a read
 * request; empty means end of input) and {@link #SIGNAL} (one byte, the signal number).
 * Server to client: {@link #STARTED} once the call is taken (before it a lost connection means the
 * command never ran, so the client may run it directly; after it, never), {@link #STDOUT},
 * {@link #STDERR}, {@link #READ} (a 32-bit byte count the command wants from stdin), and one final
 * {@link #EXIT} (32-bit code), {@link #OWN_PROCESS} (run the command line directly) or
 * {@link #STALE} (this server is outdated: start a new one and run directly).
 */
final class Frames {

    static final int HEADER = 'H';
    static final int STDIN = 'I';
    static final int SIGNAL = 'S';
    static final int STARTED = 'A';
    static final int STDOUT = 'O';
    static final int STDERR = 'E';
    static final int READ = 'R';
    static final int EXIT = 'X';
    static final int OWN_PROCESS = 'F';
    static final int STALE = 'T';

    /** Protects the server from a peer that is not the client: no frame is larger than this. */
    static final int MAX_FRAME = 16 << 20;

    private Frames() {
    }

    record Frame(int type, byte[] payload) {
    }

    /** The next frame, or null at end of stream. */
    static Frame read(DataInputStream in) throws IOException {
        int type = in.read();
        if (type < 0) {
            return null;
        }
        int length = in.readInt();
        if (length < 0 || length > MAX_FRAME) {
            throw new IOException("bad frame length " + length);
        }
        byte[] payload = new byte[length];
        try {
            in.readFully(payload);
        } catch (EOFException e) {
            return null;
        }
        return new Frame(type, payload);
    }

    /** Writes one whole frame; callers on several threads share {@code out}, so this locks it. */
    static void write(DataOutputStream out, int type, byte[] payload, int off, int len) throws IOException {
        synchronized (out) {
            out.write(type);
            out.writeInt(len);
            out.write(payload, off, len);
            out.flush();
        }
    }

    static void writeInt(DataOutputStream out, int type, int value) throws IOException {
        byte[] b = {(byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value};
        write(out, type, b, 0, 4);
    }
}
