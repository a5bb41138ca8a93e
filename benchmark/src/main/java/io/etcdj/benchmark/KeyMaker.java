package io.etcdj.benchmark;

import com.google.protobuf.ByteString;
import java.util.random.RandomGenerator;

/**
 * Keys for write workloads: {@code keySize} bytes holding a key number in [0, keySpaceSize) as a
 * zig-zag varint, zero-padded. The number is the request number modulo the key space with
 * {@code sequential}, otherwise uniformly random. With the default key space of 1 every request
 * writes the same key, which is what etcd's put benchmark does by default.
 */
final class KeyMaker {
    private final int keySize;
    private final long keySpaceSize;
    private final boolean sequential;

    KeyMaker(int keySize, long keySpaceSize, boolean sequential) {
        if (keySize < 1) {
            throw new BenchmarkException("--key-size must be at least 1");
        }
        if (keySpaceSize < 1) {
            throw new BenchmarkException("--key-space-size must be at least 1");
        }
        this.keySize = keySize;
        this.keySpaceSize = keySpaceSize;
        this.sequential = sequential;
    }

    /** The key number request {@code seq} writes; {@code random} is only used for random keys. */
    long keyNumber(long seq, RandomGenerator random) {
        return sequential ? seq % keySpaceSize : random.nextLong(keySpaceSize);
    }

    ByteString key(long keyNumber) {
        byte[] k = new byte[keySize];
        long v = (keyNumber << 1) ^ (keyNumber >> 63);
        for (int i = 0; i < keySize; i++) {
            k[i] = (byte) ((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
            v >>>= 7;
            if (v == 0) {
                break;
            }
        }
        return ByteString.copyFrom(k);
    }

    long keySpaceSize() {
        return keySpaceSize;
    }

    static ByteString randomValue(int size, RandomGenerator random) {
        if (size < 0) {
            throw new BenchmarkException("--val-size must not be negative");
        }
        byte[] v = new byte[size];
        random.nextBytes(v);
        return ByteString.copyFrom(v);
    }
}
