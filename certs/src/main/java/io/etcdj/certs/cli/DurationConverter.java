package io.etcdj.certs.cli;

import io.etcdj.cli.GoDuration;
import java.time.Duration;
import java.util.Map;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * --validity values: Go durations ("8760h") plus days and years ("365d", "10y"), units of this tool's
 * own because "h" alone is awkward for certificate lifetimes.
 */
final class DurationConverter implements ITypeConverter<Duration> {
    private static final long NANOS_PER_DAY = Duration.ofDays(1).toNanos();
    private static final Map<String, Long> DAYS_AND_YEARS = Map.of("d", NANOS_PER_DAY, "y", 365 * NANOS_PER_DAY);

    @Override
    public Duration convert(String value) {
        try {
            Duration duration = GoDuration.parse(value.trim(), DAYS_AND_YEARS);
            if (duration.isZero() || duration.isNegative()) {
                throw new TypeConversionException("validity must be positive: \"" + value + "\"");
            }
            return duration;
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage() + " (use e.g. 8760h, 365d or 1y)");
        }
    }
}
