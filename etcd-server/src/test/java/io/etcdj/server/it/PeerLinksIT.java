package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.StatusRequest;
import io.etcdj.harness.Command;
import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.Eventually;
import io.etcdj.harness.ProcessCluster;
import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The peer link flags on a 3-member cluster of ours: with --initial-election-tick-advance=false
 * every member starts without the advance (etcd's log line), and with --raft-write-timeout=1s
 * the leader gives up a stream to a follower that stopped reading (SIGSTOP) after one second
 * instead of waiting on it, then the follower catches up once it runs again.
 */
class PeerLinksIT {

    @Test
    void noTickAdvanceAndAStalledFollowersStreamIsResetAfterTheWriteTimeout() throws Exception {
        try (ProcessCluster c = ProcessCluster.start(EtcdProcess.Binary.OURS, 3, "--initial-election-tick-advance=false",
                "--raft-write-timeout=1s", "--raft-read-timeout=3s")) {
            for (EtcdProcess m : c.members()) {
                String log = Files.readString(m.logFile());
                assertTrue(log.contains("\"msg\":\"skipping initial election tick advance\""), m.name() + ": " + log);
                assertTrue(!log.contains("fast-forwarding election ticks"), log);
            }
            EtcdProcess leader = null;
            EtcdProcess follower = null;
            for (EtcdProcess m : c.members()) {
                try (GrpcEndpoint ep = new GrpcEndpoint(m)) {
                    var st = ep.maintenance().status(StatusRequest.getDefaultInstance());
                    if (st.getLeader() == st.getHeader().getMemberId()) {
                        leader = m;
                    } else {
                        follower = m;
                    }
                }
            }
            assertTrue(leader != null && follower != null, "a leader and a follower");
            signal("STOP", follower.pid());
            try (GrpcEndpoint ep = new GrpcEndpoint(leader)) {
                ByteString value = ByteString.copyFrom(new byte[256 * 1024]);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                int i = 0;
                // appends to the stopped follower fill its stream's flow-control window
                while (!Files.readString(leader.logFile()).contains("(--raft-write-timeout)") && System.nanoTime() < deadline) {
                    ep.kv().put(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("links/" + (i++ % 8))).setValue(value).build());
                }
            } finally {
                signal("CONT", follower.pid());
            }
            String log = Files.readString(leader.logFile());
            assertTrue(log.contains("write to peer timed out after 1000ms (--raft-write-timeout)"), leader.logTail());
            try (GrpcEndpoint ep = new GrpcEndpoint(leader)) {
                ep.kv().put(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("links/last")).setValue(ByteString.copyFromUtf8("v"))
                        .build());
            }
            Etcdctl ctl = new Etcdctl(follower.endpoint());
            String got = Eventually.poll(Duration.ofSeconds(30), Duration.ofMillis(200),
                    () -> ctl.run("get", "links/last", "--print-value-only", "--consistency=s").stdout(), "v\n"::equals);
            assertEquals("v\n", got, "the follower caught up: " + follower.logTail());
        }
    }

    private static void signal(String sig, long pid) throws Exception {
        Command.Result r = Command.of("kill", "-" + sig, Long.toString(pid)).mergeStderr().run();
        assertEquals(0, r.exitCode(), r.stdout());
    }
}
