package io.etcdj.server.proxy.grpc;

import io.etcdj.certs.TlsFiles;
import io.etcdj.client.Endpoint;
import io.etcdj.server.discovery.SrvLookup;
import io.etcdj.server.log.Log;
import io.etcdj.server.osutil.Interrupts;
import io.etcdj.server.proxy.Flags;
import io.etcdj.server.proxy.Subcommand;
import java.io.PrintStream;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import javax.naming.InvalidNameException;
import javax.naming.NamingException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

/**
 * {@code etcd grpc-proxy start}: the flags of etcd 3.4's command, checked, then a
 * {@link GrpcProxy} serving until the process is stopped. Flags for features this proxy does not
 * have (leasing, ordering, pprof, auto TLS, CRLs, cipher lists, a send limit) are refused with an
 * error rather than ignored; --max-send-bytes and --data-dir only at their defaults.
 */
public final class GrpcProxyCommand extends Subcommand {
    private static final Log LOG = Log.get("etcdmain/grpc_proxy.go");
    private static final List<String> UNSUPPORTED = List.of("experimental-leasing-prefix",
            "experimental-serializable-ordering", "enable-pprof", "auto-tls", "client-crl-file", "listen-cipher-suites");

    public GrpcProxyCommand() {
        super("etcd grpc-proxy start", "start the grpc proxy");
    }

    @Override
    protected Flags flags() {
        return new Flags()
                .string("listen-addr", "127.0.0.1:23790", "listen address")
                .string("discovery-srv", "", "domain name to query for SRV records describing cluster endpoints")
                .string("discovery-srv-name", "", "service name to query when using DNS discovery")
                .string("metrics-addr", "", "listen for endpoint /metrics requests on an additional interface")
                .bool("insecure-discovery", "accept insecure SRV records")
                .strings("endpoints", List.of("127.0.0.1:2379"), "comma separated etcd cluster endpoints")
                .string("advertise-client-url", "127.0.0.1:23790", "advertise address to register (must be reachable by client)")
                .string("resolver-prefix", "", "prefix to use for registering proxy (must be shared with other grpc-proxy members)")
                .integer("resolver-ttl", 0, "specify TTL, in seconds, when registering proxy endpoints")
                .string("namespace", "", "string to prefix to all keys for namespacing requests")
                .bool("enable-pprof", "Enable runtime profiling data via HTTP server. Address is at client URL + \"/debug/pprof/\"")
                .string("data-dir", "default.proxy", "Data directory for persistent data")
                .integer("max-send-bytes", 1572864, "message send limits in bytes (default value is 1.5 MiB)")
                .integer("max-recv-bytes", Integer.MAX_VALUE, "message receive limits in bytes (default value is math.MaxInt32)")
                .uint32("max-concurrent-streams", 0xFFFF_FFFFL, "Maximum concurrent streams that each client can open at a time.")
                .string("cert", "", "identify secure connections with etcd servers using this TLS certificate file")
                .string("key", "", "identify secure connections with etcd servers using this TLS key file")
                .string("cacert", "", "verify certificates of TLS-enabled secure etcd servers using this CA bundle")
                .bool("insecure-skip-tls-verify", "skip authentication of etcd server TLS certificates (CAUTION: this option "
                        + "should be enabled only for testing purposes)")
                .string("cert-file", "", "identify secure connections to the proxy using this TLS certificate file")
                .string("key-file", "", "identify secure connections to the proxy using this TLS key file")
                .string("trusted-ca-file", "", "verify certificates of TLS-enabled secure proxy using this CA bundle")
                .bool("auto-tls", "proxy TLS using generated certificates")
                .string("client-crl-file", "", "proxy client certificate revocation list file.")
                .strings("listen-cipher-suites", List.of(), "Comma-separated list of supported TLS cipher suites between "
                        + "client/proxy (empty will be auto-populated by Go).")
                .string("experimental-leasing-prefix", "", "leasing metadata prefix for disconnected linearized reads.")
                .bool("experimental-serializable-ordering", "Ensure serializable reads have monotonically increasing store "
                        + "revisions across endpoints.")
                .bool("debug", "Enable debug-level logging for grpc-proxy.");
    }

    /** The subject CN of the certificate's leaf, "" when it has none, null when unreadable. */
    private static String commonName(String certFile, String keyFile) {
        try {
            X509Certificate leaf = new TlsFiles(Path.of(certFile),
                    Path.of(keyFile), null).certificateChain().get(0);
            for (Rdn rdn : new LdapName(leaf.getSubjectX500Principal().getName())
                    .getRdns()) {
                if (rdn.getType().equalsIgnoreCase("CN")) {
                    return String.valueOf(rdn.getValue());
                }
            }
            return "";
        } catch (RuntimeException | InvalidNameException e) {
            return null;
        }
    }

    @Override
    protected int run(Flags flags, PrintStream out, PrintStream err) {
        for (String name : UNSUPPORTED) {
            if (flags.changed(name)) {
                err.println("etcd grpc-proxy: --" + name + " is not supported by this proxy");
                return 1;
            }
        }
        // accepted at their defaults only: this proxy has no send limit of its own and no auto TLS to keep files for
        if (flags.getLong("max-send-bytes") != 1572864 || !flags.getString("data-dir").equals("default.proxy")) {
            err.println("etcd grpc-proxy: --" + (flags.getLong("max-send-bytes") != 1572864 ? "max-send-bytes" : "data-dir")
                    + " is not supported by this proxy");
            return 1;
        }
        Log.setLevel(flags.getBool("debug") ? "debug" : "info");
        Log.captureJavaLogging();
        List<String> endpointTexts = new ArrayList<>(flags.getStrings("endpoints"));
        String srv = flags.getString("discovery-srv");
        if (!srv.isEmpty()) {
            try {
                List<String> found = SrvLookup.clients("etcd-client", srv, flags.getString("discovery-srv-name")).endpoints();
                LOG.info("discovered cluster from SRV", "srv-server", srv, "endpoints", found);
                if (!found.isEmpty()) {
                    endpointTexts = new ArrayList<>(found);
                }
            } catch (NamingException e) {
                err.println(e.getMessage());
                return 1;
            }
        }
        List<Endpoint> endpoints = new ArrayList<>();
        for (String ep : endpointTexts) {
            try {
                endpoints.add(Endpoint.parse(ep));
            } catch (IllegalArgumentException e) {
                err.println("etcd grpc-proxy: invalid endpoint \"" + ep + "\"");
                return 1;
            }
        }
        if (endpoints.isEmpty()) {
            err.println("no endpoints found");
            return 1;
        }
        if (flags.getString("cert").isEmpty() != flags.getString("key").isEmpty()) {
            err.println("etcd grpc-proxy: --cert and --key must be given together");
            return 1;
        }
        if (flags.getString("cert-file").isEmpty() != flags.getString("key-file").isEmpty()) {
            err.println("etcd grpc-proxy: --cert-file and --key-file must be given together");
            return 1;
        }
        if (!flags.getString("cert").isEmpty()) {
            // etcd's proxy dials the cluster with a certificate whose CN is empty: a CN would
            // authenticate every proxied request as that user
            String cn = commonName(flags.getString("cert"), flags.getString("key"));
            if (cn == null) {
                err.println("etcd grpc-proxy: cannot read --cert " + flags.getString("cert"));
                return 1;
            }
            if (!cn.isEmpty()) {
                err.println("cert has non empty Common Name (" + cn + ")");
                return 1;
            }
        }
        GrpcProxy.Options opts = new GrpcProxy.Options(endpoints,
                new UpstreamChannel.Tls(flags.getString("cert"), flags.getString("key"), flags.getString("cacert"),
                        flags.getBool("insecure-skip-tls-verify")),
                flags.getString("listen-addr"), flags.getString("advertise-client-url"), flags.getString("namespace"),
                flags.getString("resolver-prefix"), flags.getLong("resolver-ttl"), flags.getString("metrics-addr"),
                flags.getString("cert-file"), flags.getString("key-file"), flags.getString("trusted-ca-file"),
                (int) Math.min(Integer.MAX_VALUE, flags.getLong("max-recv-bytes")),
                (int) Math.min(Integer.MAX_VALUE, flags.getLong("max-concurrent-streams")));
        // SIGINT/SIGTERM end the process by that signal, as they end etcd's (which does not catch
        // them here), from before the start: the proxy, once started, closes first; other ends of
        // the JVM close it in the hook
        Interrupts.Shutdown shutdown = Interrupts.handleFromStart(signal -> { }, "grpc-proxy-shutdown");
        GrpcProxy proxy;
        try {
            proxy = GrpcProxy.start(opts);
        } catch (Exception e) {
            LOG.error("failed to start gRPC proxy", e, "error", String.valueOf(e.getMessage()));
            err.println("etcd grpc-proxy: " + e.getMessage());
            return 1;
        }
        shutdown.closes(proxy::close);
        proxy.awaitTermination();
        return 0;
    }
}
