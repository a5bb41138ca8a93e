package io.etcdj.server.wal;

import java.util.Objects;
import java.util.function.LongConsumer;

/** Immutable settings of a {@link Wal}; start from {@link #DEFAULT} or {@link #builder()}. */
public final class WalOptions {

    /** Size each segment file is preallocated to, and the size at which a new one is cut (64 MiB). */
    public static final long DEFAULT_SEGMENT_SIZE_BYTES = 64L * 1024 * 1024;
    /** etcd's {@code --max-wals} default; 0 keeps every segment. */
    public static final int DEFAULT_MAX_WALS = 5;

    public static final WalOptions DEFAULT = builder().build();

    private final long segmentSizeBytes;
    private final boolean unsafeNoFsync;
    private final LongConsumer fsyncDurationNanos;
    private final LongConsumer writtenBytes;
    private final int maxWals;
    private final DiskIo diskIo;

    private WalOptions(Builder b) {
        this.segmentSizeBytes = b.segmentSizeBytes;
        this.unsafeNoFsync = b.unsafeNoFsync;
        this.fsyncDurationNanos = b.fsyncDurationNanos;
        this.writtenBytes = b.writtenBytes;
        this.maxWals = b.maxWals;
        this.diskIo = b.diskIo;
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.segmentSizeBytes = segmentSizeBytes;
        b.unsafeNoFsync = unsafeNoFsync;
        b.fsyncDurationNanos = fsyncDurationNanos;
        b.writtenBytes = writtenBytes;
        b.maxWals = maxWals;
        b.diskIo = diskIo;
        return b;
    }

    public long segmentSizeBytes() {
        return segmentSizeBytes;
    }

    /** etcd's {@code --unsafe-no-fsync}: write but never fsync files or directories. */
    public boolean unsafeNoFsync() {
        return unsafeNoFsync;
    }

    /** Told the duration of every WAL data fsync, in nanoseconds (feeds etcd_disk_wal_fsync_duration_seconds). */
    public LongConsumer fsyncDurationNanos() {
        return fsyncDurationNanos;
    }

    /** Told the bytes of every batch appended (feeds etcd_disk_wal_write_bytes_total). */
    public LongConsumer writtenBytes() {
        return writtenBytes;
    }

    /** etcd's {@code --max-wals}: most segment files kept once released; 0 means unlimited. */
    public int maxWals() {
        return maxWals;
    }

    public DiskIo diskIo() {
        return diskIo;
    }

    public static final class Builder {
        private long segmentSizeBytes = DEFAULT_SEGMENT_SIZE_BYTES;
        private boolean unsafeNoFsync;
        private LongConsumer fsyncDurationNanos = nanos -> { };
        private LongConsumer writtenBytes = bytes -> { };
        private int maxWals = DEFAULT_MAX_WALS;
        private DiskIo diskIo = DiskIo.real();

        private Builder() {
        }

        public Builder segmentSizeBytes(long bytes) {
            if (bytes < 1024) {
                throw new IllegalArgumentException("segment size must be at least 1024 bytes, got " + bytes);
            }
            this.segmentSizeBytes = bytes;
            return this;
        }

        public Builder unsafeNoFsync(boolean unsafeNoFsync) {
            this.unsafeNoFsync = unsafeNoFsync;
            return this;
        }

        public Builder fsyncDurationNanos(LongConsumer listener) {
            this.fsyncDurationNanos = Objects.requireNonNull(listener);
            return this;
        }

        public Builder writtenBytes(LongConsumer listener) {
            this.writtenBytes = Objects.requireNonNull(listener);
            return this;
        }

        public Builder maxWals(int maxWals) {
            if (maxWals < 0) {
                throw new IllegalArgumentException("max-wals must not be negative, got " + maxWals);
            }
            this.maxWals = maxWals;
            return this;
        }

        public Builder diskIo(DiskIo diskIo) {
            this.diskIo = Objects.requireNonNull(diskIo);
            return this;
        }

        public WalOptions build() {
            return new WalOptions(this);
        }
    }
}
