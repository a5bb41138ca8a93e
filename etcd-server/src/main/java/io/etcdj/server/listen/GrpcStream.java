package io.etcdj.server.listen;

import java.util.ArrayDeque;

/** One client stream of a {@link GrpcHttp2Connection}: its call, its inbound messages and both directions' windows. On the loop. */
final class GrpcStream {
    final int id;
    final Http2ServerCall<?, ?> call;
    final GrpcDeframer deframer;
    /** What the client may still send on the stream before it hears of more. */
    int receiveWindow;
    /** Bytes counted against the windows that have not gone back to the client. */
    int held;
    /** Bytes taken since the stream's last WINDOW_UPDATE. */
    int unannounced;
    /** The client ended its side (END_STREAM). */
    boolean clientDone;
    /** What the server may still send on the stream. */
    long sendWindow;
    /** The call's headers, DATA (a {@code ByteBuf} each) and at the end its trailers, waiting for windows ({@link SendWindows}). */
    final ArrayDeque<Object> waiting = new ArrayDeque<>();
    /** On the connection's list of streams that wait for a window. */
    boolean blocked;
    /** The stream ended or was reset: nothing more is written for it. */
    boolean gone;

    GrpcStream(int id, Http2ServerCall<?, ?> call, GrpcDeframer deframer, int receiveWindow) {
        this.id = id;
        this.call = call;
        this.deframer = deframer;
        this.receiveWindow = receiveWindow;
    }
}
