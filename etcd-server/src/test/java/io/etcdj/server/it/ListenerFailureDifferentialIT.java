package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.Eventually;
import io.etcdj.harness.FreePorts;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A listener that cannot start says why, in etcd's words: the member exits 1 and its log names
 * the address and the operating system's reason, the same text as etcd 3.4's for the same
 * command line (only the text after "listen" is compared: the line around it differs, etcd
 * wraps it in "discovery failed").
 */
class ListenerFailureDifferentialIT {
    /** TEST-NET-1 (RFC 5737): never configured on this machine, so binding to it fails; nothing is sent. */
    private static final String NOT_OURS = "192.0.2.1";
    private static final Pattern LISTEN_ERROR = Pattern.compile("listen tcp [^\"]+: bind: [a-z ]+");

    private static String startError(Function<String[], EtcdProcess> binary, String... flags) throws Exception {
        try (EtcdProcess member = binary.apply(flags)) {
            member.launch();
            Eventually.until(member.describe() + " exits", Duration.ofSeconds(60), () -> !member.isAlive());
            assertEquals(1, member.exitCode(), member.logTail());
            Matcher m = LISTEN_ERROR.matcher(member.logSinceLaunch());
            assertTrue(m.find(), "no listen error in: " + member.logTail());
            return m.group();
        }
    }

    private static void same(String expected, String... flags) throws Exception {
        String etcd = startError(EtcdProcess::realEtcd, flags);
        String ours = startError(EtcdProcess::ours, flags);
        assertEquals(expected, etcd, "what etcd 3.4 says");
        assertEquals(etcd, ours);
    }

    @Test
    void aClientPortInUse() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress("127.0.0.1", FreePorts.pick()));
            String url = "http://127.0.0.1:" + taken.getLocalPort();
            same("listen tcp 127.0.0.1:" + taken.getLocalPort() + ": bind: address already in use",
                    "--listen-client-urls=" + url, "--advertise-client-urls=" + url);
        }
    }

    @Test
    void aPeerAddressThisMachineDoesNotHave() throws Exception {
        int port = FreePorts.pick();
        same("listen tcp " + NOT_OURS + ":" + port + ": bind: cannot assign requested address",
                "--listen-peer-urls=http://" + NOT_OURS + ":" + port);
    }

    @Test
    void aClientAddressThisMachineDoesNotHave() throws Exception {
        int port = FreePorts.pick();
        same("listen tcp " + NOT_OURS + ":" + port + ": bind: cannot assign requested address",
                "--listen-client-urls=http://" + NOT_OURS + ":" + port);
    }

    @Test
    void aMetricsPortInUse() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress("127.0.0.1", FreePorts.pick()));
            same("listen tcp 127.0.0.1:" + taken.getLocalPort() + ": bind: address already in use",
                    "--listen-metrics-urls=http://127.0.0.1:" + taken.getLocalPort());
        }
    }
}
