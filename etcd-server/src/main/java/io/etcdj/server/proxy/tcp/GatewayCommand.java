package io.etcdj.server.proxy.tcp;

import io.etcdj.server.listen.BindFailure;
import io.etcdj.server.osutil.Interrupts;
import io.etcdj.server.proxy.Flags;
import io.etcdj.server.proxy.Subcommand;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code etcd gateway start}: resolves the endpoints (from --endpoints or the _etcd-client SRV
 * records of --discovery-srv), refuses a setup that would proxy to itself, listens and serves
 * until the process is stopped. Errors before listening are printed as etcd prints them.
 */
public final class GatewayCommand extends Subcommand {
    public GatewayCommand() {
        super("etcd gateway start", "start the gateway");
    }

    @Override
    protected Flags flags() {
        return new Flags()
                .string("listen-addr", "127.0.0.1:23790", "listen address")
                .string("discovery-srv", "", "DNS domain used to bootstrap initial cluster")
                .string("discovery-srv-name", "", "service name to query when using DNS discovery")
                .bool("insecure-discovery", "accept insecure SRV records")
                .string("trusted-ca-file", "", "path to the client server TLS CA file for verifying the discovered "
                        + "endpoints when discovery-srv is provided.")
                .strings("endpoints", List.of("127.0.0.1:2379"), "comma separated etcd cluster endpoints")
                .duration("retry-delay", Duration.ofMinutes(1), "duration of delay before retrying failed endpoints");
    }

    @Override
    protected int run(Flags flags, PrintStream out, PrintStream err) {
        List<String> endpoints = new ArrayList<>();
        List<Remote> remotes = new ArrayList<>();
        String srvDomain = flags.getString("discovery-srv");
        if (!srvDomain.isEmpty()) {
            if (!SrvDiscovery.discover(srvDomain, flags.getString("discovery-srv-name"),
                    flags.getString("trusted-ca-file"), flags.getBool("insecure-discovery"), endpoints, remotes, err)) {
                return 1;
            }
        }
        if (endpoints.isEmpty()) {
            // nothing discovered: the static list
            endpoints.addAll(flags.getStrings("endpoints"));
        }
        List<String> hostPorts = new ArrayList<>();
        for (String ep : endpoints) {
            hostPorts.add(stripScheme(ep));
        }
        if (remotes.isEmpty()) {
            for (String ep : hostPorts) {
                HostPort hp = HostPort.split(ep);
                if (hp == null) {
                    out.print("error parsing endpoint \"" + ep + "\"");
                    out.flush();
                    return 1;
                }
                remotes.add(new Remote(hp.host(), hp.port(), 0, 0));
            }
        }
        String listenAddr = flags.getString("listen-addr");
        HostPort listen = HostPort.split(listenAddr);
        if (listen == null) {
            out.println("failed to validate listen address: " + listenAddr);
            return 1;
        }
        String laddr;
        try {
            laddr = joinHostPort(resolve(listen.host()), listen.portText());
        } catch (UnknownHostException e) {
            out.println("failed to resolve listen host: " + listen.host());
            return 1;
        }
        for (Remote r : remotes) {
            String ip;
            try {
                ip = resolve(r.host);
            } catch (UnknownHostException e) {
                out.println("failed to resolve endpoint host: " + r.host);
                return 1;
            }
            if ((ip + ":" + r.port).equals(laddr)) {
                out.println("SRV or endpoint (" + r.host + ":" + r.port + "->" + ip + ":" + r.port
                        + ") should not resolve to the gateway listen addr (" + laddr + ")");
                return 1;
            }
        }
        if (hostPorts.isEmpty()) {
            out.println("no endpoints found");
            return 1;
        }
        // SIGINT/SIGTERM end the process by that signal, as they end etcd's (which does not catch
        // them here), from before the listener binds: the proxy, once made, closes first; other
        // ends of the JVM close it in the hook
        Interrupts.Shutdown shutdown = Interrupts.handleFromStart(signal -> { }, "gateway-shutdown");
        ServerSocket listener;
        try {
            listener = new ServerSocket();
            listener.setReuseAddress(true);
            listener.bind(listen.host().isEmpty() ? new InetSocketAddress(listen.port())
                    : new InetSocketAddress(listen.host(), listen.port()), 1024);
        } catch (IOException e) {
            err.println("listen tcp " + listenAddr + ": bind: " + BindFailure.reason(e));
            return 1;
        }
        TcpProxy proxy = new TcpProxy(listener, remotes, flags.getDuration("retry-delay"));
        shutdown.closes(proxy::close);
        proxy.run();
        return 0;
    }

    /** etcd strips the scheme: the gateway forwards bytes and never speaks TLS itself. */
    static String stripScheme(String ep) {
        int i = ep.indexOf("://");
        if (i < 0) {
            return ep;
        }
        String rest = ep.substring(i + 3);
        int slash = rest.indexOf('/');
        String host = slash < 0 ? rest : rest.substring(0, slash);
        return host.isEmpty() ? ep : host;
    }

    private static String resolve(String host) throws UnknownHostException {
        // Go's LookupHost("") fails; a listen host of "" means all interfaces and resolves to nothing
        if (host.isEmpty()) {
            throw new UnknownHostException(host);
        }
        return InetAddress.getByName(host).getHostAddress();
    }

    private static String joinHostPort(String host, String port) {
        return host.contains(":") ? "[" + host + "]:" + port : host + ":" + port;
    }


}
