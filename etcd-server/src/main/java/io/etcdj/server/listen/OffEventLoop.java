package io.etcdj.server.listen;

import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.grpc.Context;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The member's gRPC servers run calls on the connection's event loop (grpc-java's direct
 * executor): for the calls that never block (a put proposes and answers from a future, a range
 * reads the backend, a peer's Raft message is queued for the Raft loop) a hand-off to a handler
 * thread per request cost more than the handler itself. Every other call (those that may wait:
 * defragment, snapshot, bcrypt, member changes, hashes, watch streams) is moved by this
 * interceptor onto {@code pool}, each call's callbacks in order and in the call's context, as
 * grpc-java's own executor would run them. It must be the outermost interceptor.
 */
public final class OffEventLoop implements ServerInterceptor {
    /** The member's logger (its sink, see MemberContext). */
    private final Log log;

    private final Executor pool;
    private final Set<String> onEventLoop;

    /** {@code onEventLoop}: full method names ({@code service/Method}) that stay on the event loop. */
    public OffEventLoop(Executor pool, Set<String> onEventLoop, LogSink logs) {
        this.log = logs.logger("embed/serve");
        this.pool = pool;
        this.onEventLoop = onEventLoop;
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        if (onEventLoop.contains(call.getMethodDescriptor().getFullMethodName())) {
            return next.startCall(call, headers);
        }
        return new Moved<>(new Serial(pool), Context.current(), call, headers, next);
    }

    /** The listener of a moved call: starts it and passes every callback on through the call's serial executor. */
    private final class Moved<Q, R> extends ServerCall.Listener<Q> {
        private final Serial serial;
        private final Context context;
        private final ServerCall<Q, R> call;
        /** Set and read on the serial executor only. */
        private ServerCall.Listener<Q> delegate;

        Moved(Serial serial, Context context, ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
            this.serial = serial;
            this.context = context;
            this.call = call;
            run(() -> delegate = next.startCall(call, headers));
        }

        private void run(Runnable r) {
            serial.execute(() -> {
                Context previous = context.attach();
                try {
                    r.run();
                } catch (RuntimeException | Error e) {
                    // what grpc-java does when a handler throws: the call ends with UNKNOWN
                    log.error("gRPC handler failed", e, "method", call.getMethodDescriptor().getFullMethodName());
                    try {
                        call.close(Status.UNKNOWN.withCause(e), new Metadata());
                    } catch (RuntimeException closed) {
                        // already closed
                    }
                } finally {
                    context.detach(previous);
                }
            });
        }

        @Override
        public void onMessage(Q message) {
            run(() -> delegate.onMessage(message));
        }

        @Override
        public void onHalfClose() {
            run(() -> delegate.onHalfClose());
        }

        @Override
        public void onCancel() {
            run(() -> delegate.onCancel());
        }

        @Override
        public void onComplete() {
            run(() -> delegate.onComplete());
        }

        @Override
        public void onReady() {
            run(() -> delegate.onReady());
        }
    }

    /** Runs one call's tasks one at a time, in order, on the pool. */
    private static final class Serial implements Executor {
        private final Executor pool;
        private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
        private final AtomicBoolean scheduled = new AtomicBoolean();

        Serial(Executor pool) {
            this.pool = pool;
        }

        @Override
        public void execute(Runnable task) {
            tasks.add(task);
            schedule();
        }

        private void schedule() {
            if (scheduled.compareAndSet(false, true)) {
                pool.execute(this::drain);
            }
        }

        private void drain() {
            try {
                for (Runnable t = tasks.poll(); t != null; t = tasks.poll()) {
                    t.run();
                }
            } finally {
                scheduled.set(false);
                if (!tasks.isEmpty()) {
                    schedule();
                }
            }
        }
    }
}
