package io.etcdj.launcher.supervisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.etcdj.cli.ExitCodes;
import io.etcdj.launcher.LauncherException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The control port round trip: request words in, output lines and the exit code back. */
class ControlProtocolTest {
    private final List<List<String>> received = new CopyOnWriteArrayList<>();
    private ControlServer server;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeEach
    void start() {
        server = new ControlServer((request, reply) -> {
            received.add(request);
            if (request.get(0).equals("fail")) {
                throw new LauncherException("first line\nsecond line", ExitCodes.NOT_RUNNING);
            }
            reply.out("did " + String.join(" ", request) + "\nand more");
            return ExitCodes.SUCCESS;
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private ClusterState state(String secret) {
        return new ClusterState(ClusterState.RUNNING, "", ProcessHandle.current().pid(), server.port(), secret,
                "base", "etcd", "none", null, List.of(), List.of(), "", 0);
    }

    private int send(ClusterState state, String... words) {
        return ControlClient.send(state, List.of(words), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void requestAndOutputRoundTrip() {
        assertEquals(0, send(state(server.secret()), "kill", "infra 2", ""));
        assertEquals(List.of(List.of("kill", "infra 2", "")), received);
        assertEquals("did kill infra 2 \nand more\n", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void errorsKeepTheirExitCodeAndLines() {
        assertEquals(ExitCodes.NOT_RUNNING, send(state(server.secret()), "fail"));
        assertEquals("Error: first line\nsecond line\n", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void wrongSecretIsRefused() {
        assertEquals(ExitCodes.ERROR, send(state("guess"), "kill", "a"));
        assertEquals(List.of(), received);
        assertEquals("Error: control request refused: wrong secret\n", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aStoppedClusterIsNotContacted() {
        ClusterState stopped = new ClusterState(ClusterState.STOPPED, "", ProcessHandle.current().pid(), server.port(),
                server.secret(), "base", "etcd", "none", null, List.of(), List.of(), "", 0);
        LauncherException e = assertThrows(LauncherException.class, () -> send(stopped, "kill", "a"));
        assertEquals(ExitCodes.NOT_RUNNING, e.exitCode());
    }
}
