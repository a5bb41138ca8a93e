package io.etcdj.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every key of etcd's config file is applied as its flag, or refused naming it; one test per group
 * of keys (etcd's embed.Config, securityConfig and etcdmain's proxy keys).
 */
class ConfigFileTest {
    @TempDir
    Path dir;

    private FlagParser.Parsed parse(String yaml) throws Exception {
        Path file = dir.resolve("etcd.conf.yml");
        Files.writeString(file, yaml);
        return FlagParser.parse(new String[] {"--config-file", file.toString()}, Map.of());
    }

    private ServerConfig config(String yaml) throws Exception {
        return ServerConfig.from(parse(yaml).values());
    }

    @Test
    void peerTransportSecurityKeepsItsNameRestrictionsAndSanSetting() throws Exception {
        ServerConfig c = config("""
                peer-transport-security:
                  cert-file: /pki/peer.crt
                  key-file: /pki/peer.key
                  client-cert-file: /pki/peer-client.crt
                  client-key-file: /pki/peer-client.key
                  client-cert-auth: true
                  trusted-ca-file: /pki/ca.crt
                  allowed-cn: [member-a, member-b]
                  allowed-hostname: [peer.example.com]
                  skip-client-san-verification: true
                """);
        TransportSecurity peer = c.peerSecurity();
        assertEquals(Path.of("/pki/peer.crt"), peer.certFile());
        assertEquals(Path.of("/pki/peer-client.crt"), peer.dialCertFile());
        assertEquals(Path.of("/pki/peer-client.key"), peer.dialKeyFile());
        assertTrue(peer.clientCertAuth());
        assertEquals(List.of("member-a", "member-b"), peer.checks().allowedCns());
        assertEquals(List.of("peer.example.com"), peer.checks().allowedHostnames());
        assertTrue(c.options().tuning().peerSkipClientSanVerification());
        assertEquals(TransportSecurity.NONE.checks(), c.clientSecurity().checks(), "nothing leaks to the client side");
    }

    @Test
    void clientTransportSecurityAppliesAllowedNamesToClientCertificates() throws Exception {
        ServerConfig c = config("""
                client-transport-security:
                  cert-file: /pki/server.crt
                  key-file: /pki/server.key
                  client-cert-auth: true
                  trusted-ca-file: /pki/ca.crt
                  auto-tls: false
                  allowed-cn: admin-client
                  allowed-hostname: [client.example.com]
                """);
        assertEquals(List.of("admin-client"), c.clientSecurity().checks().allowedCns());
        assertEquals(List.of("client.example.com"), c.clientSecurity().checks().allowedHostnames());
        assertTrue(c.peerSecurity().checks().allowedCns().isEmpty());
    }

    @Test
    void aSectionKeyWithoutEffectOrUnknownIsNamedInAWarning() throws Exception {
        FlagParser.Parsed p = parse("""
                client-transport-security:
                  skip-client-san-verification: true
                  crl-file: /pki/crl.pem
                """);
        List<String> warnings = p.warnings();
        assertEquals(2, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("client-transport-security.skip-client-san-verification"), warnings.toString());
        assertTrue(warnings.get(1).contains("client-transport-security.crl-file"), warnings.toString());
    }

    @Test
    void socketOptionsSetTheSocketFlags() throws Exception {
        ServerConfig c = config("socket-options:\n  reuse-port: true\n  reuse-address: true\n");
        assertTrue(c.options().socketReusePort());
        assertTrue(c.options().socketReuseAddress());
    }

    @Test
    void theV2ProxyAndV2ApiAreRefusedUnlessOff() throws Exception {
        assertTrue(parse("proxy: 'off'\nenable-v2: false\n").values().isEmpty());
        ConfigException proxy = assertThrows(ConfigException.class, () -> parse("proxy: 'on'\n"));
        assertTrue(proxy.getMessage().contains("\"proxy\""), proxy.getMessage());
        ConfigException v2 = assertThrows(ConfigException.class, () -> parse("enable-v2: true\n"));
        assertTrue(v2.getMessage().contains("\"enable-v2\""), v2.getMessage());
        List<String> warnings = parse("proxy-dial-timeout: 1000\ndisable-log-sampling: true\n").warnings();
        assertEquals(2, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("\"proxy-dial-timeout\" has no effect"), warnings.toString());
    }

    @Test
    void discoveryConfigIsRefusedNamingIt() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> parse("discovery-config:\n  discovery-token: t\n"));
        assertTrue(e.getMessage().contains("\"discovery-config\""), e.getMessage());
    }

    @Test
    void anUnknownKeyIsIgnoredAsEtcdIgnoresItWithAWarning() throws Exception {
        FlagParser.Parsed p = parse("name: a\nnot-an-etcd-key: 1\n");
        assertEquals(Map.of("name", "a"), p.values());
        assertEquals(List.of("unknown config file key \"not-an-etcd-key\" ignored"), p.warnings());
    }

    @Test
    void etcdsSampleConfigFileIsReadWholly() throws Exception {
        // etcd's etcd.conf.yml.sample, the keys with values (empty ones are etcd's defaults)
        FlagParser.Parsed p = parse("""
                name: 'default'
                snapshot-count: 10000
                heartbeat-interval: 100
                election-timeout: 1000
                quota-backend-bytes: 0
                listen-peer-urls: http://localhost:2380
                listen-client-urls: http://localhost:2379
                max-snapshots: 5
                max-wals: 5
                cors:
                initial-advertise-peer-urls: http://localhost:2380
                advertise-client-urls: http://localhost:2379
                discovery-fallback: 'proxy'
                initial-cluster-token: 'etcd-cluster'
                initial-cluster-state: 'new'
                strict-reconfig-check: false
                enable-pprof: true
                proxy: 'off'
                proxy-failure-wait: 5000
                proxy-refresh-interval: 30000
                proxy-dial-timeout: 1000
                proxy-write-timeout: 5000
                proxy-read-timeout: 0
                client-transport-security:
                  client-cert-auth: false
                  auto-tls: false
                peer-transport-security:
                  client-cert-auth: false
                  auto-tls: false
                self-signed-cert-validity: 1
                log-level: debug
                logger: zap
                log-outputs: [stderr]
                force-new-cluster: false
                auto-compaction-mode: periodic
                auto-compaction-retention: "1"
                cipher-suites: [
                  TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
                  TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384
                ]
                tls-min-version: 'TLS1.2'
                tls-max-version: 'TLS1.3'
                """);
        assertEquals("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
                p.values().get("cipher-suites"));
        assertEquals("stderr", p.values().get("log-outputs"));
        assertEquals("false", p.values().get("peer-client-cert-auth"));
        assertEquals(5, p.warnings().size(), "the five v2-proxy keys only: " + p.warnings());
        assertFalse(p.warnings().stream().anyMatch(w -> w.contains("unknown")), p.warnings().toString());
    }
}
