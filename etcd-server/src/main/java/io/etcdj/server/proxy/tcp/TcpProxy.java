package io.etcdj.server.proxy.tcp;

import io.etcdj.cli.GoDuration;
import io.etcdj.server.log.Log;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * etcd's tcpproxy: every accepted connection goes to the next active endpoint (round-robin within
 * the best SRV priority, weighted when SRV weights are set); an endpoint whose dial fails is
 * deactivated and the next one tried, so clients never see a dead member. Every retry interval a
 * monitor dials the inactive endpoints and reactivates those that answer.
 */
public final class TcpProxy implements AutoCloseable {
    private static final Log LOG = Log.get("tcpproxy/userspace.go");

    private final ServerSocket listener;
    private final List<Remote> remotes;
    private final Duration monitorInterval;
    private final ScheduledExecutorService monitor;
    private long pickCount;
    private volatile boolean closed;

    TcpProxy(ServerSocket listener, List<Remote> remotes, Duration monitorInterval) {
        this.listener = listener;
        this.remotes = List.copyOf(remotes);
        this.monitorInterval = monitorInterval;
        this.monitor = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "gateway-monitor"));
    }

    /** Logs readiness and serves until the listener is closed. */
    void run() {
        List<String> eps = new ArrayList<>();
        for (Remote r : remotes) {
            eps.add(r.address());
        }
        LOG.info("ready to proxy client requests", "endpoints", eps);
        long every = Math.max(1, monitorInterval.toMillis());
        monitor.scheduleWithFixedDelay(this::reactivateInactive, every, every, TimeUnit.MILLISECONDS);
        while (!closed) {
            Socket in;
            try {
                in = listener.accept();
            } catch (IOException e) {
                if (!closed) {
                    LOG.warn("failed to accept client connection", "error", String.valueOf(e.getMessage()));
                }
                continue;
            }
            daemon(() -> serve(in), "gateway-conn").start();
        }
    }

    private void reactivateInactive() {
        for (Remote r : remotes) {
            if (r.isActive()) {
                continue;
            }
            try {
                r.tryReactivate();
                LOG.info("activated", "address", r.address());
            } catch (IOException e) {
                LOG.warn("failed to activate endpoint (stay inactive for another interval)", "address", r.address(),
                        "interval", GoDuration.seconds(monitorInterval), "error", r.dialError(e));
            }
        }
    }

    private void serve(Socket in) {
        Socket out = null;
        while (out == null) {
            Remote r = pick();
            if (r == null) {
                break;
            }
            try {
                out = r.dial();
            } catch (IOException e) {
                r.inactivate();
                LOG.warn("deactivated endpoint", "address", r.address(), "interval",
                        GoDuration.seconds(monitorInterval), "error", r.dialError(e));
            }
        }
        if (out == null) {
            closeQuietly(in);
            return;
        }
        Socket upstream = out;
        Thread back = daemon(() -> {
            copy(upstream, in);
        }, "gateway-pipe");
        back.start();
        copy(in, upstream);
    }

    /** Copies until either side ends, then closes both, so the other direction ends too. */
    private static void copy(Socket from, Socket to) {
        byte[] buf = new byte[32 * 1024];
        try (InputStream is = from.getInputStream(); OutputStream os = to.getOutputStream()) {
            for (int n; (n = is.read(buf)) >= 0; ) {
                os.write(buf, 0, n);
                os.flush();
            }
        } catch (IOException e) {
            // either side went away; closing both below is all there is to do
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    /**
     * etcd's choice: the best (lowest) priority among active endpoints; weighted random when
     * weights are set, otherwise round-robin over the whole list skipping inactive ones.
     */
    synchronized Remote pick() {
        List<Remote> weighted = new ArrayList<>();
        List<Remote> unweighted = new ArrayList<>();
        int best = Integer.MAX_VALUE;
        int total = 0;
        for (Remote r : remotes) {
            if (!r.isActive() || r.priority > best) {
                continue;
            }
            if (r.priority < best) {
                best = r.priority;
                weighted.clear();
                unweighted.clear();
                total = 0;
            }
            if (r.weight > 0) {
                weighted.add(r);
                total += r.weight;
            } else {
                unweighted.add(r);
            }
        }
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        if (!weighted.isEmpty()) {
            if (!unweighted.isEmpty() && rnd.nextInt(100) == 1) {
                // RFC 2782: weight-0 records get a very small chance when others carry weight
                return unweighted.get((int) (pickCount++ % unweighted.size()));
            }
            int choose = rnd.nextInt(total);
            for (Remote r : weighted) {
                choose -= r.weight;
                if (choose < 0) {
                    return r;
                }
            }
        }
        if (!unweighted.isEmpty()) {
            for (int i = 0; i < remotes.size(); i++) {
                Remote r = remotes.get((int) (pickCount++ % remotes.size()));
                if (r.isActive() && r.priority == best) {
                    return r;
                }
            }
        }
        return null;
    }

    @Override
    public void close() {
        closed = true;
        monitor.shutdownNow();
        try {
            listener.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // already closed
        }
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
