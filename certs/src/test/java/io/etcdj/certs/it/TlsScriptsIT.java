package io.etcdj.certs.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.FreePorts;
import io.etcdj.harness.Prerequisites;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The example scripts run green against the real etcd, on ports this test finds free. */
class TlsScriptsIT {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    /** The scripts use PORT_BASE up to PORT_BASE + 21. */
    private static final int PORTS_PER_SCRIPT = 22;

    @ParameterizedTest
    @ValueSource(strings = {"tls-client-https.sh", "tls-client-cert-auth.sh", "tls-peer.sh", "tls-auto.sh", "tls-cfssl.sh"})
    void scriptPasses(String script) throws Exception {
        Prerequisites.requireExecutable(ExternalCommand.ETCD, "etcd-server");
        Prerequisites.requireExecutable(ExternalCommand.ETCDCTL, "etcd-client");
        ExternalCommand.curl();
        Path file = ROOT.resolve("scripts").resolve(script);
        assertTrue(Files.isExecutable(file), file + " must be executable");
        ProcessBuilder builder = new ProcessBuilder("bash", file.toString()).redirectErrorStream(true);
        builder.environment().put("ETCD_BIN", ExternalCommand.ETCD.toString());
        builder.environment().put("ETCDCTL_BIN", ExternalCommand.ETCDCTL.toString());
        builder.environment().put("PORT_BASE", String.valueOf(FreePorts.pickRange(PORTS_PER_SCRIPT)));
        Process process = builder.start();
        try {
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(120, TimeUnit.SECONDS), "timed out:\n" + output);
            assertEquals(0, process.exitValue(), output);
            assertTrue(output.contains("PASS: "), output);
        } finally {
            // SIGTERM first: the script's trap then stops the members it started.
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}
