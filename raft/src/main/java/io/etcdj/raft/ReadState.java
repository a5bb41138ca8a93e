package io.etcdj.raft;

import java.util.Arrays;

/**
 * The answer to a {@link RawNode#readIndex} request: once the local applied index reaches
 * {@code index}, a read started when the request was made may be served linearizably.
 */
public final class ReadState {
    private final long index;
    private final byte[] requestCtx;

    public ReadState(long index, byte[] requestCtx) {
        this.index = index;
        this.requestCtx = requestCtx.clone();
    }

    public long index() {
        return index;
    }

    /** The context passed to {@link RawNode#readIndex}, identifying the request. */
    public byte[] requestCtx() {
        return requestCtx.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ReadState other && other.index == index && Arrays.equals(other.requestCtx, requestCtx);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(index) * 31 + Arrays.hashCode(requestCtx);
    }

    @Override
    public String toString() {
        return "ReadState{index=" + index + ", ctx=" + requestCtx.length + " bytes}";
    }
}
