package io.etcdj.server.listen;

import io.grpc.Attributes;
import io.grpc.Context;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One gRPC call on a {@link GrpcHttp2Connection}: grpc-java's public {@link ServerCall} contract,
 * so that the services and interceptors run unchanged, without grpc-java's server transport. Its
 * inbound side (messages, half-close, cancel) is driven from the connection's event loop; what it
 * sends may come from any thread and reaches the socket through the connection's outbound queue.
 */
final class Http2ServerCall<Q, R> extends ServerCall<Q, R> {
    /**
     * grpc-java's: a call is ready for more answers while less than this is queued for its stream
     * (in the flow controller, waiting for the client's window, or in the socket's buffer).
     */
    static final int ON_READY_THRESHOLD = 32 * 1024;

    private final AtomicLong queuedBytes = new AtomicLong();
    private final GrpcHttp2Connection connection;
    private final int streamId;
    private final MethodDescriptor<Q, R> method;
    private final Attributes attributes;
    private final String authority;
    final Context context;
    private ServerCall.Listener<Q> listener;
    private final ArrayDeque<GrpcWire.Message> inbound = new ArrayDeque<>();
    private int demand;
    private boolean halfClosedByClient;
    private boolean halfCloseDelivered;
    private volatile boolean headersSent;
    private volatile boolean closed;
    private volatile boolean cancelled;

    Http2ServerCall(GrpcHttp2Connection connection, int streamId, MethodDescriptor<Q, R> method, Attributes attributes,
            String authority, Context context) {
        this.connection = connection;
        this.streamId = streamId;
        this.method = method;
        this.attributes = attributes;
        this.authority = authority;
        this.context = context;
    }

    /** Starts the call through the method's handler (its interceptors first), on the event loop. */
    void start(ServerCallHandler<Q, R> handler, Metadata headers) {
        inContext(() -> listener = handler.startCall(this, headers));
        if (listener == null) {
            listener = new ServerCall.Listener<>() { // the start failed and closed the call
            };
        }
        readyChanged();
    }

    /** An answer's bytes joined the connection's queue. */
    void queued(int bytes) {
        queuedBytes.addAndGet(bytes);
    }

    /** An answer's bytes left (or were dropped with the stream); on the event loop. */
    void sent(int bytes) {
        long before = queuedBytes.getAndAdd(-bytes);
        if (before >= ON_READY_THRESHOLD && before - bytes < ON_READY_THRESHOLD) {
            readyChanged();
        }
    }

    /** A whole message arrived (on the event loop). */
    void messageArrived(GrpcWire.Message message) {
        inbound.add(message);
        deliver();
    }

    /** The client half-closed (on the event loop). */
    void halfClosed() {
        halfClosedByClient = true;
        deliver();
    }

    /** The stream was reset or the connection lost before the call closed (on the event loop). */
    void cancelledByPeer() {
        if (closed || cancelled) {
            return;
        }
        cancelled = true;
        inContext(() -> listener.onCancel());
        if (context instanceof Context.CancellableContext c) {
            c.cancel(null);
        }
    }

    /**
     * The call's trailers were written, or could not be because the client went first (on the
     * event loop): its listener hears onComplete or onCancel, as from grpc-java's server.
     */
    void ended(boolean delivered) {
        if (cancelled) {
            return;
        }
        if (delivered) {
            inContext(() -> listener.onComplete());
        } else {
            cancelled = true;
            inContext(() -> listener.onCancel());
        }
        if (context instanceof Context.CancellableContext c) {
            c.cancel(null);
        }
    }

    void readyChanged() {
        if (closed || cancelled || listener == null) {
            return;
        }
        inContext(() -> listener.onReady());
    }

    /**
     * Hands the listener what it asked for; each message taken returns its bytes to the client's
     * window. Messages the call will never take (it ended) return theirs too.
     */
    private void deliver() {
        if (listener == null) {
            return;
        }
        if (cancelled || closed) {
            GrpcWire.Message dropped;
            while ((dropped = inbound.poll()) != null) {
                connection.returnBytes(streamId, dropped.heldBytes);
            }
            return;
        }
        inContext(() -> {
            while (demand > 0 && !inbound.isEmpty() && !closed) {
                demand--;
                GrpcWire.Message message = inbound.poll();
                connection.returnBytes(streamId, message.heldBytes);
                listener.onMessage(method.parseRequest(message));
            }
            if (halfClosedByClient && inbound.isEmpty() && !halfCloseDelivered && !closed) {
                halfCloseDelivered = true;
                listener.onHalfClose();
            }
        });
    }

    /**
     * Runs a listener callback in the call's context. A callback that throws ends its call as
     * grpc-java's server ends it (UNKNOWN, "Application error processing RPC"), logged; the
     * connection and its other calls go on. A request that does not parse ends it as INTERNAL.
     */
    private void inContext(Runnable callback) {
        Context previous = context.attach();
        try {
            callback.run();
        } catch (StatusRuntimeException e) {
            close(e.getStatus(), new Metadata());
        } catch (RuntimeException e) {
            connection.handlerFailed(method.getFullMethodName(), e);
            close(Status.UNKNOWN.withDescription("Application error processing RPC").withCause(e), new Metadata());
        } finally {
            context.detach(previous);
        }
    }

    @Override
    public void request(int numMessages) {
        if (connection.inEventLoop()) {
            demand += numMessages;
            deliver();
        } else {
            connection.execute(() -> request(numMessages));
        }
    }

    @Override
    public void sendHeaders(Metadata headers) {
        headersSent = true;
        connection.sendHeaders(streamId, headers);
    }

    @Override
    public void sendMessage(R message) {
        if (!headersSent) {
            sendHeaders(new Metadata());
        }
        connection.sendMessage(this, streamId, GrpcWire.frame(connection.alloc(), method, message));
    }

    @Override
    public void close(Status status, Metadata trailers) {
        if (closed) {
            return;
        }
        closed = true;
        connection.sendTrailers(this, streamId, status, trailers, !headersSent);
    }

    @Override
    public boolean isReady() {
        return !closed && queuedBytes.get() < ON_READY_THRESHOLD && connection.isWritable();
    }

    @Override
    public boolean isCancelled() {
        return cancelled;
    }

    @Override
    public Attributes getAttributes() {
        return attributes;
    }

    @Override
    public String getAuthority() {
        return authority;
    }

    @Override
    public MethodDescriptor<Q, R> getMethodDescriptor() {
        return method;
    }
}
