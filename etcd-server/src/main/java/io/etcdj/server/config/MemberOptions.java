package io.etcdj.server.config;

import io.etcdj.server.log.Rotation;
import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * Settings added for running in place of an existing etcd deployment: the metrics listeners,
 * gRPC connection limits and keep-alives, socket options, feature gates this server honours, and
 * the auth flags, and the warnings start-up logs (deprecated spellings in use).
 */
public record MemberOptions(
        List<URI> listenMetricsUrls,
        boolean metricsExtensive,
        boolean initialCorruptCheck,
        int maxLearners,
        long maxConcurrentStreams,
        boolean enableGrpcGateway,
        Duration grpcKeepaliveMinTime,
        Duration grpcKeepaliveInterval,
        Duration grpcKeepaliveTimeout,
        boolean socketReusePort,
        boolean socketReuseAddress,
        Duration corruptCheckTime,
        AuthOptions auth,
        WatchdogOptions watchdog,
        ClientHttpOptions clientHttp,
        boolean enablePprof,
        long bootstrapDefragThresholdMegabytes,
        Rotation logRotation,
        BackendBatch backendBatch,
        StoreTuning storeTuning,
        MemberTuning tuning,
        List<String> warnings) {

    /** etcd's defaults. */
    public static final MemberOptions DEFAULTS = new MemberOptions(List.of(), false, false, 1, 4294967295L, true,
            Duration.ofSeconds(5), Duration.ofHours(2), Duration.ofSeconds(20), false, false, Duration.ZERO, AuthOptions.DEFAULTS,
            WatchdogOptions.DEFAULTS, ClientHttpOptions.DEFAULTS, false, 0, null, BackendBatch.DEFAULTS, StoreTuning.DEFAULTS,
            MemberTuning.DEFAULTS,
            List.of());
}
