package io.etcdj.robustness;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The members' own hosts: one network namespace per member (made by the run itself, needing root
 * and iproute2), each with a veth pair into a bridge in the test's namespace, addresses
 * 10.99.X.N/24 that exist inside this machine only. Peers talk over real interfaces, not
 * loopback. Faults: a member's link taken down isolates it (from peers and clients). Link delays
 * need the kernel's netem and single-link cuts need a packet filter, neither of which this
 * machine has, so those faults are not offered here (the proxied mode has them).
 */
final class Namespaces implements Network {
    private final String bridge;
    private final int subnet;
    private final List<String> namespaces = new ArrayList<>();

    private Namespaces(String bridge, int subnet) {
        this.bridge = bridge;
        this.subnet = subnet;
    }

    /** Creates the bridge and {@code size} namespaces, or throws if this machine cannot. */
    static Namespaces create(int size) throws IOException, InterruptedException {
        int tag = ThreadLocalRandom.current().nextInt(100000, 999999);
        Namespaces n = new Namespaces("rbr" + tag, 1 + ThreadLocalRandom.current().nextInt(250));
        try {
            ip("link", "add", n.bridge, "type", "bridge");
            ip("addr", "add", "10.99." + n.subnet + ".254/24", "dev", n.bridge);
            ip("link", "set", n.bridge, "up");
            for (int i = 1; i <= size; i++) {
                String ns = "rob" + tag + "-" + i;
                ip("netns", "add", ns);
                n.namespaces.add(ns);
                ip("link", "add", n.veth(i), "type", "veth", "peer", "name", "eth0", "netns", ns);
                ip("link", "set", n.veth(i), "master", n.bridge);
                ip("link", "set", n.veth(i), "up");
                ip("netns", "exec", ns, "ip", "addr", "add", n.address(i) + "/24", "dev", "eth0");
                ip("netns", "exec", ns, "ip", "link", "set", "eth0", "up");
                ip("netns", "exec", ns, "ip", "link", "set", "lo", "up");
            }
            return n;
        } catch (IOException | InterruptedException | RuntimeException e) {
            n.close();
            throw e;
        }
    }

    String namespace(int i) {
        return namespaces.get(i - 1);
    }

    String address(int i) {
        return "10.99." + subnet + "." + i;
    }

    private String veth(int i) {
        return bridge.replace("rbr", "rv") + i;
    }

    private int index(MemberProcess m) {
        return Integer.parseInt(m.name.substring(1));
    }

    @Override
    public Set<Faults.Kind> supported() {
        return Set.of(Faults.Kind.KILL_LEADER, Faults.Kind.KILL_RANDOM, Faults.Kind.PAUSE_RANDOM,
                Faults.Kind.ISOLATE_RANDOM, Faults.Kind.ISOLATE_LEADER);
    }

    @Override
    public void isolate(MemberProcess m) throws IOException, InterruptedException {
        ip("link", "set", veth(index(m)), "down");
    }

    @Override
    public void cut(MemberProcess a, MemberProcess b) {
        throw new IllegalStateException("cutting one link needs a packet filter, which this mode does not use");
    }

    @Override
    public void slow(MemberProcess m, int millis) {
        throw new IllegalStateException("delaying a link needs the kernel's netem, which this mode does not use");
    }

    @Override
    public void heal() throws IOException, InterruptedException {
        for (int i = 1; i <= namespaces.size(); i++) {
            ip("link", "set", veth(i), "up");
        }
    }

    @Override
    public void close() {
        for (String ns : namespaces) {
            quietly("netns", "del", ns);
        }
        quietly("link", "del", bridge);
    }

    private static void quietly(String... args) {
        try {
            ip(args);
        } catch (IOException | InterruptedException | RuntimeException e) {
            // cleaning up: the namespace or link is gone already
        }
    }

    static void ip(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("ip"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", cmd) + " failed: " + out.strip());
        }
    }
}
