package io.etcdj.server.config;

import java.time.Duration;

/**
 * The member's self-checks an operator can switch on: the leader's compaction hash check
 * (--feature-gates=CompactHashCheck=true or --experimental-compact-hash-check-enabled, every
 * --compact-hash-check-time) and the thresholds past which slow requests
 * (--warning-unary-request-duration) and slow applies (--warning-apply-duration) are logged.
 */
public record WatchdogOptions(
        boolean compactHashCheck,
        Duration compactHashCheckTime,
        Duration warningUnaryRequestDuration,
        Duration warningApplyDuration) {

    /** etcd's defaults. */
    public static final WatchdogOptions DEFAULTS = new WatchdogOptions(false, Duration.ofMinutes(1),
            Duration.ofMillis(300), Duration.ofMillis(100));
}
