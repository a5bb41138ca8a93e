package io.etcdj.ctl.printer;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The command's standard output. Keys and values are written as raw bytes (Go prints bytes, not
 * characters), everything else as UTF-8.
 */
public final class Out {

    private final PrintStream stream;

    public Out(PrintStream stream) {
        this.stream = stream;
    }

    public PrintStream stream() {
        return stream;
    }

    public void print(String s) {
        write(s.getBytes(StandardCharsets.UTF_8));
    }

    public void println(String s) {
        print(s + "\n");
    }

    public void println() {
        print("\n");
    }

    /** Writes bytes unchanged. */
    public void raw(ByteString b) {
        write(b.toByteArray());
    }

    public void write(byte[] b) {
        try {
            ((OutputStream) stream).write(b);
            stream.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
