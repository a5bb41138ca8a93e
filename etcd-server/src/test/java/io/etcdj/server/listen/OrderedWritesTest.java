package io.etcdj.server.listen;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.util.concurrent.DefaultEventExecutor;
import io.netty.util.concurrent.EventExecutor;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The answers' frames leave in the order they were sent, whichever thread sent them, in as few flushes as that allows. */
class OrderedWritesTest {
    private final EventExecutor loop = new DefaultEventExecutor();
    private final List<String> wire = new CopyOnWriteArrayList<>();
    private final OrderedWrites writes = new OrderedWrites(loop, () -> wire.add("flush"));

    @AfterEach
    void stop() throws Exception {
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }

    /** Runs {@code task} on the loop, then waits for what it queued behind itself. */
    private void onLoop(Runnable task) throws Exception {
        loop.submit(task).get(5, TimeUnit.SECONDS);
        loop.submit(() -> { }).get(5, TimeUnit.SECONDS);
    }

    /** Runs {@code task} on a thread of its own and waits for it (the caller, on the loop, keeps the loop busy). */
    private static void fromOtherThread(Runnable task) {
        Thread t = new Thread(task);
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aWriteOnTheLoopWaitsForTheOnesAnotherThreadQueuedBeforeIt() throws Exception {
        onLoop(() -> {
            // a handler thread sends the stream's headers while the loop is busy (a Raft turn)
            fromOtherThread(() -> writes.write(() -> wire.add("headers")));
            writes.write(() -> wire.add("event")); // the turn applies a put: its watch event
        });
        assertEquals(List.of("headers", "event", "flush"), wire);
    }

    @Test
    void writesFromOtherThreadsLeaveInOrderInOneFlush() throws Exception {
        onLoop(() -> fromOtherThread(() -> {
            writes.write(() -> wire.add("headers"));
            writes.write(() -> wire.add("message"));
            writes.write(() -> wire.add("trailers"));
        }));
        assertEquals(List.of("headers", "message", "trailers", "flush"), wire);
    }

    @Test
    void aWriteDuringAReadIsFlushedByTheReadsEndNotByItself() throws Exception {
        onLoop(() -> {
            writes.reading(true);
            writes.write(() -> wire.add("answer"));
            writes.reading(false);
        });
        assertEquals(List.of("answer"), wire);
        onLoop(() -> writes.write(() -> wire.add("later")));
        assertEquals(List.of("answer", "later", "flush"), wire);
    }

    @Test
    void aWriteMadeByAQueuedWriteJoinsTheEndOfTheQueue() throws Exception {
        onLoop(() -> {
            fromOtherThread(() -> {
                writes.write(() -> {
                    wire.add("data");
                    writes.write(() -> wire.add("ready again")); // the data's listener: the call may send more
                });
                writes.write(() -> wire.add("trailers"));
            });
            writes.write(() -> wire.add("next call"));
        });
        assertEquals(List.of("data", "trailers", "next call", "ready again", "flush"), wire);
    }
}
