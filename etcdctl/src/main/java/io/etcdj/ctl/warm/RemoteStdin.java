package io.etcdj.ctl.warm;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * The caller's stdin, read only when the command reads: each read asks the client for at most that
 * many bytes and the client does one read of its own stdin. A client that read ahead would swallow
 * input meant for the next command of a script ({@code while read k; do etcdctl get "$k"; done}).
 */
final class RemoteStdin extends InputStream {

    private static final byte[] EOF = new byte[0];
    private static final int MAX_ASK = 64 * 1024;

    private final DataOutputStream socket;
    private final BlockingQueue<byte[]> answers = new ArrayBlockingQueue<>(1);
    private byte[] buffer = EOF;
    private int pos;

    RemoteStdin(DataOutputStream socket) {
        this.socket = socket;
    }

    /** An answer from the client (empty: end of input); also used to end reads when the call ends. */
    void answer(byte[] data) {
        answers.offer(data);
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public synchronized int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (pos >= buffer.length) {
            Frames.writeInt(socket, Frames.READ, Math.min(len, MAX_ASK));
            try {
                buffer = answers.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while reading stdin");
            }
            pos = 0;
            if (buffer.length == 0) {
                // Not remembered: a terminal can give end of input (Ctrl-D) and then more lines.
                return -1;
            }
        }
        int n = Math.min(len, buffer.length - pos);
        System.arraycopy(buffer, pos, b, off, n);
        pos += n;
        return n;
    }

    @Override
    public synchronized int available() {
        return buffer.length - pos;
    }
}
