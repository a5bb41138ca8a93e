package io.etcdj.certs.cli;

import io.etcdj.certs.cfssl.GoDuration;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** --validity values: Go durations ("8760h") plus days and years ("365d", "10y"). */
final class DurationConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
        try {
            Duration duration = GoDuration.parseLenient(value);
            if (duration.isZero() || duration.isNegative()) {
                throw new TypeConversionException("validity must be positive: \"" + value + "\"");
            }
            return duration;
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage() + " (use e.g. 8760h, 365d or 1y)");
        }
    }
}
