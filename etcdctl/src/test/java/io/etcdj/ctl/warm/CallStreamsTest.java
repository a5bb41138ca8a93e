package io.etcdj.ctl.warm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A call's output frames (held until the command runs here) and its stdin (read only on request). */
class CallStreamsTest {

    private final ByteArrayOutputStream wire = new ByteArrayOutputStream();
    private final DataOutputStream socket = new DataOutputStream(wire);

    @Test
    void outputIsHeldUntilReleasedThenSentAsFrames() throws IOException {
        CallOutput.Held held = new CallOutput.Held(socket);
        CallOutput out = new CallOutput(held, Frames.STDOUT);
        out.write("warning\n".getBytes(StandardCharsets.UTF_8));
        assertEquals(0, frames().size(), "nothing reaches the caller before the command is known to run here");
        held.release();
        out.write("OK\n".getBytes(StandardCharsets.UTF_8));
        List<Frames.Frame> sent = frames();
        assertEquals(2, sent.size());
        assertEquals(Frames.STDOUT, sent.get(0).type());
        assertEquals("warning\n", new String(sent.get(0).payload(), StandardCharsets.UTF_8));
        assertEquals("OK\n", new String(sent.get(1).payload(), StandardCharsets.UTF_8));
    }

    @Test
    void aHandedBackCallSendsNothing() throws IOException {
        CallOutput.Held held = new CallOutput.Held(socket);
        CallOutput out = new CallOutput(held, Frames.STDERR);
        out.write("warning\n".getBytes(StandardCharsets.UTF_8));
        out.discard();
        out.write("more\n".getBytes(StandardCharsets.UTF_8));
        held.release();
        assertEquals(0, frames().size());
    }

    @Test
    void mutedOutputStopsAfterASignal() throws IOException {
        CallOutput.Held held = new CallOutput.Held(socket);
        CallOutput out = new CallOutput(held, Frames.STDOUT);
        held.release();
        out.write('a');
        out.mute();
        out.write('b');
        assertEquals(1, frames().size());
    }

    @Test
    void heldStdoutAndStderrReachTheCallerInTheOrderWritten() throws IOException {
        CallOutput.Held held = new CallOutput.Held(socket);
        CallOutput out = new CallOutput(held, Frames.STDOUT);
        CallOutput err = new CallOutput(held, Frames.STDERR);
        err.write("Error: unknown flag\n".getBytes(StandardCharsets.UTF_8));
        out.write("USAGE\n".getBytes(StandardCharsets.UTF_8));
        err.write("Error: unknown flag\n".getBytes(StandardCharsets.UTF_8));
        held.release();
        List<Integer> types = frames().stream().map(Frames.Frame::type).toList();
        assertEquals(List.of(Frames.STDERR, Frames.STDOUT, Frames.STDERR), types,
                "a terminal shows both streams interleaved as written");
    }

    @Test
    void stdinAsksForNoMoreThanTheReaderWantsAndPassesEndOfInputOn() throws Exception {
        RemoteStdin in = new RemoteStdin(socket);
        in.answer("hello".getBytes(StandardCharsets.UTF_8));
        byte[] buf = new byte[3];
        assertEquals(3, in.read(buf, 0, 3));
        assertArrayEquals("hel".getBytes(StandardCharsets.UTF_8), buf);
        List<Frames.Frame> asked = frames();
        assertEquals(1, asked.size());
        assertEquals(Frames.READ, asked.get(0).type());
        assertEquals(3, new DataInputStream(new ByteArrayInputStream(asked.get(0).payload())).readInt());
        assertEquals(2, in.read(buf, 0, 3), "the rest of the answer, without asking again");
        assertEquals(1, frames().size());
        in.answer(new byte[0]);
        assertEquals(-1, in.read(buf, 0, 3));
    }

    @Test
    void noReadNoRequest() {
        new RemoteStdin(socket);
        assertEquals(0, wire.size(), "a command that never reads never touches the caller's stdin");
    }

    private List<Frames.Frame> frames() throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(wire.toByteArray()));
        List<Frames.Frame> all = new ArrayList<>();
        Frames.Frame f;
        while ((f = Frames.read(in)) != null) {
            all.add(f);
        }
        return all;
    }
}
