package io.etcdj.server.listen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.etcdj.server.wait.InlineExecutor;
import io.netty.channel.EventLoop;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A batch of answers applied on a member's loop leaves at once, each connection flushed once, before what the loop had queued. */
class AnsweringLoopTest {
    private final MultiThreadIoEventLoopGroup group = AnsweringLoop.group(1, new DefaultThreadFactory("answering-test", true),
            NioIoHandler.newFactory());
    private final EventLoop loop = group.next();
    private final InlineExecutor answering = (InlineExecutor) loop;
    private final List<String> wire = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() throws Exception {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }

    /** Runs {@code task} on the loop, then waits for what it queued behind itself. */
    private void onLoop(Runnable task) throws Exception {
        loop.submit(task).get(5, TimeUnit.SECONDS);
        loop.submit(() -> { }).get(5, TimeUnit.SECONDS);
    }

    @Test
    void aBatchsAnswersAreFlushedWhenItReturnsBeforeTheLoopsQueuedTasks() throws Exception {
        OrderedWrites client1 = new OrderedWrites(loop, () -> wire.add("flush 1"));
        OrderedWrites client2 = new OrderedWrites(loop, () -> wire.add("flush 2"));
        onLoop(() -> {
            // a Raft turn on the loop: something it did earlier queued a task (a peer's write, a timer)
            loop.execute(() -> wire.add("queued task"));
            boolean ran = answering.runIfOwnThread(() -> {
                client1.write(() -> wire.add("answer 1a"));
                client2.write(() -> wire.add("answer 2"));
                client1.write(() -> wire.add("answer 1b"));
            });
            wire.add("batch returned " + ran);
        });
        assertEquals(List.of("answer 1a", "answer 2", "answer 1b", "flush 1", "flush 2", "batch returned true", "queued task"), wire);
    }

    @Test
    void aBatchAnsweredWithinAnotherFlushesWithIt() throws Exception {
        OrderedWrites client = new OrderedWrites(loop, () -> wire.add("flush"));
        onLoop(() -> answering.runIfOwnThread(() -> {
            client.write(() -> wire.add("answer"));
            answering.runIfOwnThread(() -> client.write(() -> wire.add("answer of the inner batch")));
            wire.add("inner batch returned");
        }));
        assertEquals(List.of("answer", "answer of the inner batch", "inner batch returned", "flush"), wire);
    }

    @Test
    void aBatchDuringTheConnectionsReadLeavesTheFlushToTheReadsEnd() throws Exception {
        // one member: the Raft turn runs in the client connection's own read, whose end flushes
        OrderedWrites client = new OrderedWrites(loop, () -> wire.add("flush"));
        onLoop(() -> {
            client.reading(true);
            answering.runIfOwnThread(() -> client.write(() -> wire.add("answer")));
            client.reading(false);
        });
        assertEquals(List.of("answer"), wire);
    }

    @Test
    void offTheLoopsThreadNothingRuns() {
        boolean[] ran = {false};
        assertFalse(answering.runIfOwnThread(() -> ran[0] = true), "the caller queues the batch instead");
        assertFalse(ran[0]);
    }
}
