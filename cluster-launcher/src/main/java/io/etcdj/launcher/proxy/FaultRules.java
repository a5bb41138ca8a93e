package io.etcdj.launcher.proxy;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Which members are cut off and which are slowed down. A link between two members is affected
 * when either end is; a connection whose source is unknown is judged by its destination only.
 * Thread-safe: proxies read it on every chunk while commands change it.
 */
public final class FaultRules {
    private final Set<String> partitioned = new HashSet<>();
    private final Map<String, Integer> delays = new HashMap<>();
    /** Cut links between two members, each kept as "a|b" with a before b. */
    private final Set<String> cutLinks = new HashSet<>();

    public synchronized void partition(String member) {
        partitioned.add(member);
    }

    public synchronized void delay(String member, int millis) {
        if (millis <= 0) {
            delays.remove(member);
        } else {
            delays.put(member, millis);
        }
    }

    /** Cuts the link between two members both ways; each keeps its links to the others. */
    public synchronized void cut(String a, String b) {
        cutLinks.add(linkKey(a, b));
    }

    /** Removes every partition, cut link and delay. */
    public synchronized void heal() {
        partitioned.clear();
        delays.clear();
        cutLinks.clear();
    }

    /** Removes the member's partition, delay and cut links; other members' faults stay. */
    public synchronized void heal(String member) {
        forget(member);
        cutLinks.removeIf(link -> link.startsWith(member + "|") || link.endsWith("|" + member));
    }

    public synchronized void forget(String member) {
        partitioned.remove(member);
        delays.remove(member);
    }

    public synchronized boolean blocked(String destination, Optional<String> source) {
        return partitioned.contains(destination)
                || source.map(s -> partitioned.contains(s) || cutLinks.contains(linkKey(s, destination))).orElse(false);
    }

    private static String linkKey(String a, String b) {
        return a.compareTo(b) < 0 ? a + "|" + b : b + "|" + a;
    }

    public synchronized int delayMillis(String destination, Optional<String> source) {
        int d = delays.getOrDefault(destination, 0);
        int s = source.map(m -> delays.getOrDefault(m, 0)).orElse(0);
        return Math.max(d, s);
    }

    public synchronized boolean isPartitioned(String member) {
        return partitioned.contains(member);
    }

    public synchronized int delayOf(String member) {
        return delays.getOrDefault(member, 0);
    }

    public synchronized Map<String, Integer> delays() {
        return new TreeMap<>(delays);
    }
}
