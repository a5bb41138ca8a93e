package io.etcdj.server.proxy.tcp;

import io.etcdj.server.discovery.SrvLookup;
import io.etcdj.server.log.Log;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.naming.NamingException;

/**
 * The gateway's --discovery-srv: the _etcd-client(-ssl) records of the domain, kept only when
 * they are https and answer a dial, unless --insecure-discovery (etcd's discoverEndpoints and
 * ValidateSecureEndpoints, which dial TCP and do not handshake; the CA file only has to load).
 */
final class SrvDiscovery {
    private static final Log LOG = Log.get("etcdmain/gateway.go");
    private static final int DIAL_TIMEOUT_MS = 5_000;

    private SrvDiscovery() {
    }

    /** Fills {@code endpoints} and {@code remotes}; false (after printing the error) if the lookup failed. */
    static boolean discover(String domain, String serviceName, String caFile, boolean insecure,
            List<String> endpoints, List<Remote> remotes, PrintStream err) {
        SrvLookup.Clients clients;
        try {
            clients = SrvLookup.clients("etcd-client", domain, serviceName);
        } catch (NamingException e) {
            err.println(e.getMessage());
            return false;
        }
        LOG.info("discovered cluster from SRV", "srv-server", domain, "endpoints", clients.endpoints());
        Set<String> keep = new HashSet<>(clients.endpoints());
        if (!insecure) {
            String caProblem = caFile.isEmpty() || Files.isReadable(Path.of(caFile))
                    ? null : "open " + caFile + ": no such file or directory";
            LOG.info("validating discovered SRV endpoints", "srv-server", domain, "endpoints", clients.endpoints());
            List<String> valid = new ArrayList<>();
            List<String> errors = new ArrayList<>();
            for (String ep : caProblem != null ? List.<String>of() : clients.endpoints()) {
                if (!ep.startsWith("https://")) {
                    errors.add("\"" + ep + "\" is insecure");
                    continue;
                }
                String problem = dial(ep.substring("https://".length()));
                if (problem != null) {
                    errors.add("\"" + ep + "\" failed to dial (" + problem + ")");
                    continue;
                }
                valid.add(ep);
            }
            if (caProblem != null) {
                errors.add(caProblem);
            }
            if (!errors.isEmpty()) {
                LOG.warn("failed to validate discovered endpoints", "srv-server", domain, "endpoints", valid,
                        "error", String.join(",", errors));
            } else {
                LOG.info("using validated discovered SRV endpoints", "srv-server", domain, "endpoints", valid);
            }
            keep = new HashSet<>(valid);
        }
        for (int i = 0; i < clients.endpoints().size(); i++) {
            String ep = clients.endpoints().get(i);
            if (keep.contains(ep)) {
                SrvLookup.Srv s = clients.srvs().get(i);
                endpoints.add(ep);
                remotes.add(new Remote(s.host(), s.port(), s.priority(), s.weight()));
            }
        }
        return true;
    }

    private static String dial(String hostPort) {
        HostPort hp = HostPort.split(hostPort);
        if (hp == null) {
            return "missing port in address";
        }
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(hp.host(), hp.port()), DIAL_TIMEOUT_MS);
            return null;
        } catch (IOException e) {
            return new Remote(hp.host(), hp.port(), 0, 0).dialError(e);
        }
    }
}
