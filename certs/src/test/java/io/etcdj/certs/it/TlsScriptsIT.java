package io.etcdj.certs.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.Command;
import io.etcdj.harness.FreePorts;
import io.etcdj.harness.Prerequisites;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
        // the script's trap stops the members it started; on a timeout Command kills them with it
        Command.Result r = Command.of("bash", file.toString()).env("ETCD_BIN", ExternalCommand.ETCD.toString())
                .env("ETCDCTL_BIN", ExternalCommand.ETCDCTL.toString())
                .env("PORT_BASE", String.valueOf(FreePorts.pickRange(PORTS_PER_SCRIPT)))
                .mergeStderr().timeout(Duration.ofSeconds(120)).run();
        assertEquals(0, r.exitCode(), r.stdout());
        assertTrue(r.stdout().contains("PASS: "), r.stdout());
    }
}
