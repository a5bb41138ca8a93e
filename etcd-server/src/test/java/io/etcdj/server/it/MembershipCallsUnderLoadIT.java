package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.FreePorts;
import io.etcdj.harness.ProcessCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * python-etcd3's membership script, many times over, on three members under a KV load: add an
 * unstarted member, update its peer URL, remove it, each call to another member (as a client
 * balancing its calls does). etcd answers all of them; ours once in a few hundred rounds answered
 * "etcdserver: request timed out" (UNAVAILABLE): a follower that had applied the previous change
 * answered it and forwarded the next one to a leader that had not applied it yet, which dropped
 * it as a no-op (raft's MembershipTest.aForwardedConfChangeWaitsForThePendingOneToBeApplied has
 * the mechanism, deterministically). Every call must succeed.
 */
class MembershipCallsUnderLoadIT {
    private static final int ROUNDS = 60;
    private static final Pattern ADDED = Pattern.compile("Member\\s+([0-9a-f]+) added");

    @Test
    void addUpdateRemoveOfAnUnstartedMemberNeverFail() throws Exception {
        try (ProcessCluster c = ProcessCluster.start(EtcdProcess.Binary.OURS, 3)) {
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> load = new ArrayList<>();
            for (EtcdProcess m : c.members()) {
                Thread t = new Thread(() -> {
                    try (GrpcEndpoint e = new GrpcEndpoint(m)) {
                        for (int i = 0; !stop.get(); i++) {
                            try {
                                e.kv().put(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("load/" + (i % 1000)))
                                        .setValue(ByteString.copyFromUtf8("v" + i)).build());
                            } catch (RuntimeException ignored) {
                                // the load only has to be there
                            }
                        }
                    } catch (Exception ignored) {
                        // closing the endpoint
                    }
                }, "kv-load");
                t.start();
                load.add(t);
            }
            List<String> failures = new ArrayList<>();
            try {
                for (int i = 0; i < ROUNDS; i++) {
                    Etcdctl first = new Etcdctl(c.member(i % 3).endpoint());
                    Etcdctl second = new Etcdctl(c.member((i + 1) % 3).endpoint());
                    Etcdctl third = new Etcdctl(c.member((i + 2) % 3).endpoint());
                    Etcdctl.Result add = first.run("member", "add", "new" + i, "--peer-urls=http://127.0.0.1:" + FreePorts.pick());
                    Matcher id = ADDED.matcher(add.stdout());
                    if (add.exitCode() != 0 || !id.find()) {
                        failures.add("round " + i + " add: " + add.stderr());
                        break;
                    }
                    Etcdctl.Result update = second.run("member", "update", id.group(1),
                            "--peer-urls=http://127.0.0.1:" + FreePorts.pick());
                    if (update.exitCode() != 0) {
                        failures.add("round " + i + " update: " + update.stderr());
                    }
                    Etcdctl.Result remove = third.run("member", "remove", id.group(1));
                    if (remove.exitCode() != 0) {
                        failures.add("round " + i + " remove: " + remove.stderr());
                        break;
                    }
                }
            } finally {
                stop.set(true);
                for (Thread t : load) {
                    t.join(30_000);
                }
            }
            assertEquals(List.of(), failures);
            assertEquals(3, new Etcdctl(c.endpoints()).run("member", "list").ok().stdout().lines().count());
        }
    }
}
