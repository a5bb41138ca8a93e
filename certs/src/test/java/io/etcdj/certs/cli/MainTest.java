package io.etcdj.certs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.certs.CertificateAuthority;
import io.etcdj.certs.CertificateDetails;
import io.etcdj.certs.CertificateRequest;
import io.etcdj.certs.PemFiles;
import io.etcdj.certs.cfssl.CfsslSamples;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainTest {
    @TempDir
    Path dir;

    private String p(String name) {
        return dir.resolve(name).toString();
    }

    private static void assertNoStackTrace(CliRun run) {
        assertFalse(run.err().contains("\tat "), run.err());
        assertFalse(run.err().contains("Exception"), run.err());
    }

    @Test
    void helpListsOnlyBuiltCommands() {
        CliRun run = CliRun.of("--help");
        assertEquals(0, run.exitCode());
        for (String command : List.of("ca", "issue", "cluster", "inspect", "gencert", "print-defaults")) {
            assertTrue(run.out().contains("  " + command + " "), command);
        }
        assertEquals(0, CliRun.of("gencert", "--help").exitCode());
        CliRun none = CliRun.of();
        assertEquals(2, none.exitCode());
        assertTrue(none.err().startsWith("Missing required subcommand"), none.err());
    }

    @Test
    void caThenIssueEachKind() throws Exception {
        CliRun ca = CliRun.of("ca", "--out", dir.toString(), "--cn", "my-ca");
        assertEquals(0, ca.exitCode(), ca.err());
        assertEquals("Wrote " + p("ca.pem") + " (CA certificate)\nWrote " + p("ca-key.pem") + " (CA key, mode 0600)\n", ca.out());
        String[] caFlags = {"--ca-cert", p("ca.pem"), "--ca-key", p("ca-key.pem"), "--out", dir.toString()};
        CliRun server = CliRun.of(concat(new String[] {"issue", "server", "--cn", "infra0", "--hosts", "127.0.0.1,localhost",
                "--validity", "30d"}, caFlags));
        assertEquals(0, server.exitCode(), server.err());
        assertTrue(server.out().startsWith("Wrote " + p("infra0.pem") + " (server certificate for \"infra0\")"), server.out());
        CertificateDetails details = CertificateDetails.of(PemFiles.readCertificate(dir.resolve("infra0.pem")));
        assertEquals(List.of("server auth"), details.extendedKeyUsages());
        assertEquals(List.of("localhost"), details.dnsNames());
        assertEquals(List.of("127.0.0.1"), details.ipAddresses());
        assertEquals(Duration.ofDays(30), Duration.between(details.notBefore(), details.notAfter()));
        assertEquals("CN=my-ca", details.issuer());

        assertEquals(0, CliRun.of(concat(new String[] {"issue", "peer", "--cn", "infra1", "--hosts", "127.0.0.1",
                "--key-algo", "rsa", "--key-size", "2048", "--key-format", "traditional"}, caFlags)).exitCode());
        CertificateDetails peer = CertificateDetails.of(PemFiles.readCertificate(dir.resolve("infra1.pem")));
        assertEquals(List.of("server auth", "client auth"), peer.extendedKeyUsages());
        assertEquals("RSA 2048", peer.publicKey());
        assertTrue(Files.readString(dir.resolve("infra1-key.pem")).startsWith("-----BEGIN RSA PRIVATE KEY-----"));

        CliRun client = CliRun.of(concat(new String[] {"issue", "client", "--cn", "root", "--name", "client"}, caFlags));
        assertEquals(0, client.exitCode(), client.err());
        assertEquals("", client.err(), "a client certificate needs no hosts");
        assertEquals(List.of("client auth"),
                CertificateDetails.of(PemFiles.readCertificate(dir.resolve("client.pem"))).extendedKeyUsages());

        CliRun again = CliRun.of(concat(new String[] {"issue", "client", "--cn", "root", "--name", "client"}, caFlags));
        assertEquals(1, again.exitCode());
        assertEquals("Error: " + p("client.pem") + ": already exists (use --force to replace it)\n", again.err());

        CliRun noHosts = CliRun.of(concat(new String[] {"issue", "server", "--cn", "bare"}, caFlags));
        assertEquals(0, noHosts.exitCode());
        assertTrue(noHosts.err().startsWith("Warning: no --hosts"), noHosts.err());
    }

    @Test
    void issueErrors() throws Exception {
        CliRun missingCa = CliRun.of("issue", "server", "--cn", "x", "--ca-cert", p("nope.pem"), "--ca-key", p("nope-key.pem"),
                "--out", dir.toString());
        assertEquals(1, missingCa.exitCode());
        assertEquals("Error: open " + p("nope.pem") + ": no such file or directory\n", missingCa.err());

        CliRun.of("ca", "--out", dir.toString());
        CliRun.of("ca", "--out", dir.toString(), "--name", "other");
        CliRun mismatch = CliRun.of("issue", "server", "--cn", "x", "--ca-cert", p("ca.pem"), "--ca-key", p("other-key.pem"),
                "--out", dir.toString());
        assertEquals(1, mismatch.exitCode());
        assertEquals("Error: " + p("other-key.pem") + ": tls: private key does not match public key in " + p("ca.pem") + "\n",
                mismatch.err());

        CliRun badKind = CliRun.of("issue", "router", "--cn", "x", "--ca-cert", p("ca.pem"), "--ca-key", p("ca-key.pem"));
        assertEquals(1, badKind.exitCode());
        assertEquals("Error: invalid certificate kind \"router\" (use server, peer or client)\n", badKind.err());

        CliRun badHost = CliRun.of("issue", "server", "--cn", "x", "--hosts", "300.1.2.3", "--ca-cert", p("ca.pem"),
                "--ca-key", p("ca-key.pem"), "--out", dir.toString());
        assertEquals(1, badHost.exitCode());
        assertEquals("Error: invalid IP address \"300.1.2.3\"\n", badHost.err());

        CliRun badValidity = CliRun.of("ca", "--out", dir.toString(), "--validity", "forever");
        assertEquals(2, badValidity.exitCode());
        assertTrue(badValidity.err().contains("time: invalid duration \"forever\""), badValidity.err());

        CliRun badSize = CliRun.of("ca", "--out", p("sub"), "--key-algo", "ecdsa", "--key-size", "1024");
        assertEquals(1, badSize.exitCode());
        assertEquals("Error: invalid ecdsa key size 1024 (use 256, 384 or 521)\n", badSize.err());
        assertNoStackTrace(badSize);
    }

    @Test
    void clusterWritesAndPrintsEveryFile() throws Exception {
        CliRun run = CliRun.of("cluster", "--member", "infra0=127.0.0.1,localhost", "--member", "infra1=127.0.0.1",
                "--client", "root", "--out", dir.toString());
        assertEquals(0, run.exitCode(), run.err());
        for (String file : List.of("ca.pem", "ca-key.pem", "infra0.pem", "infra0-key.pem", "peer-infra0.pem",
                "peer-infra0-key.pem", "infra1.pem", "peer-infra1-key.pem", "client.pem", "client-key.pem")) {
            assertTrue(Files.exists(dir.resolve(file)), file);
            assertTrue(run.out().contains(p(file)), file + " missing from:\n" + run.out());
        }
        assertTrue(run.out().contains("(infra0 --peer-cert-file/--peer-key-file, hosts 127.0.0.1,localhost)"), run.out());
        assertTrue(run.out().contains("(client \"root\": etcdctl --cert/--key)"), run.out());
        assertEquals(List.of("server auth", "client auth"),
                CertificateDetails.of(PemFiles.readCertificate(dir.resolve("infra0.pem"))).extendedKeyUsages());

        // Re-using the CA in the same directory: its certificate and key stay as they are.
        String caBefore = Files.readString(dir.resolve("ca.pem"));
        String caKeyBefore = Files.readString(dir.resolve("ca-key.pem"));
        CliRun more = CliRun.of("cluster", "--member", "infra2=127.0.0.1", "--client", "admin", "--force",
                "--ca-cert", p("ca.pem"), "--ca-key", p("ca-key.pem"), "--out", dir.toString());
        assertEquals(0, more.exitCode(), more.err());
        assertEquals(caBefore, Files.readString(dir.resolve("ca.pem")));
        assertEquals(caKeyBefore, Files.readString(dir.resolve("ca-key.pem")));
        assertFalse(more.out().contains("ca-key.pem"), more.out());
        assertEquals("CN=etcd-ca", CertificateDetails.of(PemFiles.readCertificate(dir.resolve("infra2.pem"))).issuer());

        CliRun bad = CliRun.of("cluster", "--member", "infra0", "--out", p("x"));
        assertEquals(1, bad.exitCode());
        assertEquals("Error: invalid --member \"infra0\" (use NAME=HOST[,HOST...])\n", bad.err());
    }

    @Test
    void inspectShowsDetailsAndRunsChecks() throws Exception {
        CliRun.of("cluster", "--member", "infra0=127.0.0.1,localhost", "--out", dir.toString());
        CliRun run = CliRun.of("inspect", p("infra0.pem"), "--key", p("infra0-key.pem"), "--ca", p("ca.pem"),
                "--host", "127.0.0.1,localhost", "--purpose", "server");
        assertEquals(0, run.exitCode(), run.err());
        String fingerprint = CertificateDetails.fingerprint(PemFiles.readCertificate(dir.resolve("infra0.pem")));
        for (String line : List.of("Subject:      CN=infra0", "Issuer:       CN=etcd-ca", "DNS names:    localhost",
                "IP addresses: 127.0.0.1", "Key usages:   digital signature, key encipherment",
                "Ext usages:   server auth, client auth", "CA:           false", "Public key:   ECDSA P-256",
                "SHA-256:      " + fingerprint, "Check: key " + p("infra0-key.pem") + " matches", "Check: usable for server",
                "Check: valid for 127.0.0.1, localhost", "Check: signed by a CA in " + p("ca.pem"))) {
            assertTrue(run.out().contains(line + "\n"), line + " missing from:\n" + run.out());
        }
        assertTrue(run.out().contains("days left)"), run.out());

        CliRun wrongHost = CliRun.of("inspect", p("infra0.pem"), "--host", "10.0.1.10");
        assertEquals(1, wrongHost.exitCode());
        assertEquals("Error: " + p("infra0.pem") + ": x509: certificate is valid for localhost, 127.0.0.1, not 10.0.1.10\n",
                wrongHost.err());

        CliRun wrongUsage = CliRun.of("inspect", p("client.pem"), "--purpose", "server");
        assertEquals(1, wrongUsage.exitCode());
        assertEquals("Error: " + p("client.pem") + ": x509: certificate specifies an incompatible key usage: server use needs "
                + "\"server auth\", certificate has [\"client auth\"]\n", wrongUsage.err());

        CertificateAuthority.create("other").writePem(dir.resolve("other.pem"), dir.resolve("other-key.pem"));
        CliRun otherCa = CliRun.of("inspect", p("infra0.pem"), "--ca", p("other.pem"));
        assertEquals(1, otherCa.exitCode());
        assertEquals("Error: " + p("infra0.pem") + ": x509: certificate signed by unknown authority (CA file "
                + p("other.pem") + ")\n", otherCa.err());

        CliRun wrongKey = CliRun.of("inspect", p("infra0.pem"), "--key", p("client-key.pem"));
        assertEquals(1, wrongKey.exitCode());
        assertEquals("Error: " + p("client-key.pem") + ": tls: private key does not match public key in " + p("infra0.pem")
                + "\n", wrongKey.err());
    }

    @Test
    void inspectExpiredAndExpiringCertificates() {
        Instant now = Instant.now();
        CertificateAuthority ca = CertificateAuthority.create(CertificateRequest.ca("old").notBefore(now.minus(Duration.ofDays(100))));
        ca.issue(CertificateRequest.server("gone").notBefore(now.minus(Duration.ofDays(50))).validity(Duration.ofDays(10)))
                .writePem(dir.resolve("gone.pem"), dir.resolve("gone-key.pem"));
        ca.issue(CertificateRequest.server("soon").notBefore(now.minus(Duration.ofDays(50))).validity(Duration.ofDays(60)))
                .writePem(dir.resolve("soon.pem"), dir.resolve("soon-key.pem"));

        CliRun expired = CliRun.of("inspect", p("gone.pem"));
        assertEquals(1, expired.exitCode());
        assertTrue(expired.out().contains("(EXPIRED)"), expired.out());
        assertTrue(expired.err().startsWith("Error: " + p("gone.pem")
                + ": x509: certificate has expired or is not yet valid: current time "), expired.err());

        CliRun expiring = CliRun.of("inspect", p("soon.pem"));
        assertEquals(0, expiring.exitCode());
        assertTrue(expiring.err().startsWith("Warning: " + p("soon.pem") + ": certificate expires in 9 days"), expiring.err());
    }

    @Test
    void inspectErrorsAreOneLine() throws Exception {
        CliRun missing = CliRun.of("inspect", p("none.pem"));
        assertEquals(1, missing.exitCode());
        assertEquals("Error: open " + p("none.pem") + ": no such file or directory\n", missing.err());
        Files.writeString(dir.resolve("junk.pem"), "hello");
        CliRun junk = CliRun.of("inspect", p("junk.pem"));
        assertEquals("Error: " + p("junk.pem") + ": tls: failed to find any PEM data in certificate input\n", junk.err());
        assertNoStackTrace(junk);
    }

    @Test
    void cfsslFlowWithBareOutput() throws Exception {
        Files.writeString(dir.resolve("ca-csr.json"), CfsslSamples.CA_CSR);
        Files.writeString(dir.resolve("ca-config.json"), CfsslSamples.CA_CONFIG);
        Files.writeString(dir.resolve("req-csr.json"), CfsslSamples.REQ_CSR);
        CliRun ca = CliRun.of("gencert", "-initca", p("ca-csr.json"), "--bare", p("certs/ca"));
        assertEquals(0, ca.exitCode(), ca.err());
        assertEquals("Wrote " + p("certs/ca.pem") + "\nWrote " + p("certs/ca-key.pem") + "\nWrote " + p("certs/ca.csr") + "\n",
                ca.out());
        // Go flag syntax: one dash, "=" or a space.
        CliRun server = CliRun.of("gencert", "-ca=" + p("certs/ca.pem"), "-ca-key", p("certs/ca-key.pem"),
                "-config=" + p("ca-config.json"), "-profile=server", p("req-csr.json"), "-bare", p("certs/infra0"));
        assertEquals(0, server.exitCode(), server.err());
        CertificateDetails details = CertificateDetails.of(PemFiles.readCertificate(dir.resolve("certs/infra0.pem")));
        assertEquals(List.of("server auth"), details.extendedKeyUsages());
        assertEquals("CN=etcd,OU=etcd cluster,O=autogenerated,L=the internet", details.subject());
        assertTrue(Files.exists(dir.resolve("certs/infra0.csr")));

        CliRun json = CliRun.of("gencert", "--ca", p("certs/ca.pem"), "--ca-key", p("certs/ca-key.pem"), "--hostname",
                "127.0.0.1", p("req-csr.json"));
        assertEquals(0, json.exitCode(), json.err());
        assertTrue(json.out().startsWith("{\"cert\":\"-----BEGIN CERTIFICATE-----"), json.out());

        CliRun stdin = CliRun.withStdin("{\"CN\": \"piped\"}", "gencert", "-initca", "-");
        assertEquals(0, stdin.exitCode(), stdin.err());
    }

    @Test
    void gencertErrors() throws Exception {
        Files.writeString(dir.resolve("bad.json"), "{\"CN\": ");
        CliRun malformed = CliRun.of("gencert", "-initca", p("bad.json"));
        assertEquals(1, malformed.exitCode());
        assertTrue(malformed.err().startsWith("Error: " + p("bad.json") + ": malformed JSON at line 1, column "), malformed.err());
        assertEquals(1, malformed.err().lines().count());

        Files.writeString(dir.resolve("req.json"), "{\"CN\": \"x\"}");
        CliRun noCa = CliRun.of("gencert", p("req.json"));
        assertEquals(1, noCa.exitCode());
        assertEquals("Error: -ca and -ca-key are required to sign a certificate (or use -initca)\n", noCa.err());

        CliRun.of("ca", "--out", dir.toString());
        Files.writeString(dir.resolve("config.json"), CfsslSamples.CA_CONFIG);
        CliRun badProfile = CliRun.of("gencert", "-ca", p("ca.pem"), "-ca-key", p("ca-key.pem"), "-config", p("config.json"),
                "-profile", "www", p("req.json"));
        assertEquals(1, badProfile.exitCode());
        assertEquals("Error: " + p("config.json") + ": unknown profile \"www\" (profiles: client, peer, server)\n",
                badProfile.err());
        assertNoStackTrace(badProfile);
    }

    @Test
    void printDefaults() {
        CliRun config = CliRun.of("print-defaults", "config");
        assertEquals(0, config.exitCode());
        assertTrue(config.out().contains("\"profiles\""));
        assertTrue(CliRun.of("print-defaults", "csr").out().contains("\"CN\": \"example.net\""));
        CliRun bad = CliRun.of("print-defaults", "nope");
        assertEquals(1, bad.exitCode());
        assertEquals("Error: unknown default \"nope\" (use config or csr)\n", bad.err());
    }

    private static String[] concat(String[] a, String[] b) {
        String[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
