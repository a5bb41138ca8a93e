package io.etcdj.server.log;

/**
 * How a log file is rotated (--enable-log-rotation, --log-rotation-config-json: lumberjack's settings).
 *
 * @param maxSizeMegabytes size at which the file is rotated (0 means lumberjack's 100)
 * @param maxAgeDays rotated files older than this are removed (0: kept whatever their age)
 * @param maxBackups at most this many rotated files are kept (0: all)
 * @param localTime rotated files are named with local time rather than UTC
 * @param compress rotated files are gzipped
 */
public record Rotation(long maxSizeMegabytes, long maxAgeDays, long maxBackups, boolean localTime, boolean compress) {
}
