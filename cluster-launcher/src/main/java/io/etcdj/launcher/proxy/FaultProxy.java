package io.etcdj.launcher.proxy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Listens on a member's advertised peer address and forwards each connection to the member's
 * real peer listener, subject to the {@link FaultRules}. One accept thread; each connection has
 * its own threads (see {@link ProxyConnection}).
 */
public final class FaultProxy implements AutoCloseable {
    private final String member;
    private final InetSocketAddress listen;
    private final InetSocketAddress target;
    private final FaultRules rules;
    private final Supplier<Map<String, Long>> memberPids;
    private final Set<ProxyConnection> connections = ConcurrentHashMap.newKeySet();
    private ServerSocket server;
    private Thread acceptor;

    /**
     * @param memberPids the live member processes, to tell which member opened a connection
     */
    public FaultProxy(String member, InetSocketAddress listen, InetSocketAddress target, FaultRules rules,
            Supplier<Map<String, Long>> memberPids) {
        this.member = member;
        this.listen = listen;
        this.target = target;
        this.rules = rules;
        this.memberPids = memberPids;
    }

    public String member() {
        return member;
    }

    public InetSocketAddress listenAddress() {
        return listen;
    }

    public synchronized void start() throws IOException {
        server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(listen, 128);
        acceptor = new Thread(this::acceptLoop, "proxy-accept-" + member);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Cuts the connections the current rules block; called after every rule change. */
    public void enforce() {
        for (ProxyConnection c : connections) {
            if (rules.blocked(member, c.source())) {
                c.close();
            }
        }
    }

    public int openConnections() {
        return connections.size();
    }

    @Override
    public synchronized void close() {
        try {
            if (server != null) {
                server.close();
            }
        } catch (IOException ignored) {
            // closing anyway
        }
        connections.forEach(ProxyConnection::close);
        if (acceptor != null) {
            try {
                acceptor.join(2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            Optional<String> source = SocketOwners.ownerOf(client.getPort(), listen.getPort(), memberPids.get());
            if (rules.blocked(member, source)) {
                closeQuietly(client);
                continue;
            }
            Socket upstream = new Socket();
            try {
                upstream.connect(target, 2_000);
            } catch (IOException e) {
                closeQuietly(client);
                closeQuietly(upstream);
                continue;
            }
            ProxyConnection c = new ProxyConnection(member, source, client, upstream, rules, connections::remove);
            connections.add(c);
            c.start();
        }
    }

    static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // nothing left to do with it
        }
    }
}
