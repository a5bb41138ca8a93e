package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.EtcdProcess;
import org.junit.jupiter.api.Test;

/**
 * What a client sees right after the member says it is ready. etcd logs "ready to serve client requests"
 * only once the member can serve them, so a linearizable read issued at that moment must succeed.
 */
class StartupIT {

    @Test
    void linearizableReadRightAfterTheReadyLineIsServed() throws Exception {
        try (EtcdProcess member = EtcdProcess.ours()) {
            member.startUntilReadyLine();
            Etcdctl.Result get = new Etcdctl(member.endpoint()).run("get", "startup/k");
            assertEquals(0, get.exitCode(), get + "\nlog:\n" + member.logTail());
            assertTrue(member.isAlive(), "the member exited after its first read; log:\n" + member.logTail());
            Etcdctl.Result put = new Etcdctl(member.endpoint()).run("put", "startup/k", "v");
            assertEquals("OK\n", put.stdout(), put + "\nlog:\n" + member.logTail());
        }
    }
}
