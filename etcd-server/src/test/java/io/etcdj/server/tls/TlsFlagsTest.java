package io.etcdj.server.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.server.config.ConfigException;
import io.etcdj.server.config.FlagParser;
import io.etcdj.server.config.ServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The TLS flags: parsing, etcd's validation texts, and the config file's nested sections. */
class TlsFlagsTest {
    @TempDir
    Path dir;

    private static ServerConfig parse(String... args) throws ConfigException {
        return ServerConfig.from(FlagParser.parse(args, Map.of()).values());
    }

    private static String failure(String... args) {
        return assertThrows(ConfigException.class, () -> parse(args)).getMessage();
    }

    @Test
    void flagsMapToBothSides() throws Exception {
        ServerConfig cfg = parse("--cert-file", "s.pem", "--key-file=s-key.pem", "--client-cert-auth",
                "--trusted-ca-file", "ca.pem", "--peer-auto-tls", "--peer-trusted-ca-file=pca.pem",
                "--listen-client-urls", "https://127.0.0.1:2379");
        assertEquals(Path.of("s.pem"), cfg.clientSecurity().certFile());
        assertEquals(Path.of("s-key.pem"), cfg.clientSecurity().keyFile());
        assertEquals(Path.of("ca.pem"), cfg.clientSecurity().trustedCaFile());
        assertTrue(cfg.clientSecurity().clientCertAuth());
        assertFalse(cfg.clientSecurity().autoTls());
        assertTrue(cfg.peerSecurity().autoTls());
        assertNull(cfg.peerSecurity().certFile());
        assertFalse(cfg.peerSecurity().clientCertAuth());
        assertTrue(cfg.peerSecurity().verifiesClients(), "a trusted CA file alone requires client certificates, as in etcd");
        assertEquals("https", cfg.listenClientUrls().get(0).getScheme());
    }

    @Test
    void cipherSuitesUseGoNamesAndMapToJdkNames() throws Exception {
        ServerConfig cfg = parse("--cipher-suites",
                "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305");
        assertEquals(List.of("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256"),
                cfg.tlsOptions().jdkCipherSuites());
        assertEquals("unexpected TLS cipher suite \"FOO\"", failure("--cipher-suites", "FOO"));
    }

    @Test
    void tlsVersionsFollowEtcd() throws Exception {
        assertEquals("TLSv1.2", parse().tlsOptions().minVersion());
        assertNull(parse().tlsOptions().maxVersion());
        assertEquals("TLSv1.3", parse("--tls-min-version", "TLS1.3").tlsOptions().minVersion());
        assertEquals("unexpected TLS version \"TLS1.1\" (must be one of: TLS1.2, TLS1.3)",
                failure("--tls-min-version", "TLS1.1"));
        assertEquals("min version (TLS1.3) is greater than max version (TLS1.2)",
                failure("--tls-min-version", "TLS1.3", "--tls-max-version", "TLS1.2"));
        assertEquals("cipher suites cannot be configured when only TLS1.3 is enabled",
                failure("--tls-min-version", "TLS1.3", "--cipher-suites", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"));
    }

    @Test
    void configFileNestsTransportSecurity() throws Exception {
        Path yaml = Files.writeString(dir.resolve("etcd.yml"), String.join("\n",
                "name: infra0",
                "listen-client-urls: https://127.0.0.1:2379",
                "client-transport-security:",
                "  cert-file: /etc/etcd/server.pem",
                "  key-file: /etc/etcd/server-key.pem",
                "  client-cert-auth: true",
                "  trusted-ca-file: /etc/etcd/ca.pem",
                "  auto-tls: false",
                "  crl-file: ''",
                "peer-transport-security:",
                "  cert-file: /etc/etcd/peer.pem",
                "  key-file: /etc/etcd/peer-key.pem",
                "  client-cert-auth: true",
                "  trusted-ca-file: /etc/etcd/ca.pem",
                "  auto-tls: true",
                "cipher-suites: [TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384]",
                "tls-min-version: TLS1.2",
                ""));
        ServerConfig cfg = parse("--config-file", yaml.toString());
        assertEquals(Path.of("/etc/etcd/server.pem"), cfg.clientSecurity().certFile());
        assertEquals(Path.of("/etc/etcd/server-key.pem"), cfg.clientSecurity().keyFile());
        assertTrue(cfg.clientSecurity().clientCertAuth());
        assertFalse(cfg.clientSecurity().autoTls());
        assertEquals(Path.of("/etc/etcd/peer.pem"), cfg.peerSecurity().certFile());
        assertEquals(Path.of("/etc/etcd/ca.pem"), cfg.peerSecurity().trustedCaFile());
        assertTrue(cfg.peerSecurity().clientCertAuth());
        assertTrue(cfg.peerSecurity().autoTls());
        assertEquals(List.of("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384"),
                cfg.tlsOptions().cipherSuites());
    }

    @Test
    void helpListsTheSecurityFlags() {
        String usage = FlagParser.usage();
        for (String flag : List.of("--cert-file", "--key-file", "--client-cert-auth", "--trusted-ca-file", "--auto-tls",
                "--peer-cert-file", "--peer-key-file", "--peer-client-cert-auth", "--peer-trusted-ca-file",
                "--peer-auto-tls", "--cipher-suites", "--tls-min-version")) {
            assertTrue(usage.contains("\n  " + flag + " '"), flag);
        }
        assertTrue(usage.indexOf("\nClustering:") < usage.indexOf("\nSecurity:")
                && usage.indexOf("\nSecurity:") < usage.indexOf("\nLogging:"), "etcd's group order");
    }
}
