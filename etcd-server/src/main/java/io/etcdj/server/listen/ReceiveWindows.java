package io.etcdj.server.listen;

import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;

/**
 * HTTP/2 flow control of what a client sends on one connection: the connection's window and its
 * streams' shrink with each DATA frame and grow again, by a WINDOW_UPDATE once half of a window
 * was taken (as Netty's and grpc-java's flow control do), with the bytes the server has taken. A
 * message's bytes are taken when its call takes the message. On the connection's event loop.
 */
final class ReceiveWindows {
    private final int window;
    private final Http2Output out;
    /** Has the frames written flushed soon. */
    private final Runnable flushSoon;
    private int connectionWindow;
    private int connectionUnannounced;

    /** {@code window}: the connection's and every stream's, as the server's preface announced them. */
    ReceiveWindows(int window, Http2Output out, Runnable flushSoon) {
        this.window = window;
        this.connectionWindow = window;
        this.out = out;
        this.flushSoon = flushSoon;
    }

    /** {@code bytes} of DATA arrived (frame and padding): the connection's window shrinks by them. */
    void received(int bytes) throws Http2Exception {
        connectionWindow -= bytes;
        if (connectionWindow < 0) {
            throw Http2Exception.connectionError(Http2Error.FLOW_CONTROL_ERROR, "Flow control window exceeded for stream: 0");
        }
    }

    /** The same bytes arrived on {@code s}: its window shrinks by them; past it, the stream is reset and the bytes go back. */
    void receivedOn(GrpcStream s, int bytes) throws Http2Exception {
        s.receiveWindow -= bytes;
        if (s.receiveWindow < 0) {
            giveBack(null, bytes);
            throw Http2Exception.streamError(s.id, Http2Error.FLOW_CONTROL_ERROR, "Flow control window exceeded for stream: %d", s.id);
        }
    }

    /**
     * Bytes that arrived go back to the client's windows: the connection's and, while the client
     * may still send on it, {@code s}'s (null: a stream that is over).
     */
    void giveBack(GrpcStream s, int bytes) {
        if (bytes <= 0) {
            return;
        }
        connectionUnannounced += bytes;
        if (connectionUnannounced >= window / 2) {
            out.windowUpdate(0, connectionUnannounced);
            connectionWindow += connectionUnannounced;
            connectionUnannounced = 0;
            flushSoon.run();
        }
        if (s != null && !s.clientDone && !s.gone) {
            s.unannounced += bytes;
            if (s.unannounced >= window / 2) {
                out.windowUpdate(s.id, s.unannounced);
                s.receiveWindow += s.unannounced;
                s.unannounced = 0;
                flushSoon.run();
            }
        }
    }
}
