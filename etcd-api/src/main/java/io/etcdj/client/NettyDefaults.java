package io.etcdj.client;

/**
 * Netty settings every process of ours wants, applied before Netty's first class initializes (call
 * it first in {@code main}); a value given with {@code -D} on the command line wins.
 */
public final class NettyDefaults {
    private NettyDefaults() {
    }

    public static void apply() {
        // Netty 4.2 defines JFR events for its allocators; initializing them loads JFR's machinery
        // and generates some sixty classes at start-up (~60 ms of a one-shot etcdctl), for events
        // nobody records here.
        if (System.getProperty("io.netty.jfr.enabled") == null) {
            System.setProperty("io.netty.jfr.enabled", "false");
        }
    }
}
