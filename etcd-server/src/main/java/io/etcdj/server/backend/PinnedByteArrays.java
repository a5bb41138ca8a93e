package io.etcdj.server.backend;

import java.util.Comparator;
import jnr.ffi.Pointer;
import jnr.ffi.provider.MemoryManager;
import org.lmdbjava.BufferProxy;
import org.lmdbjava.ByteArrayProxy;
import org.lmdbjava.DbiFlags;

/**
 * lmdbjava's byte-array proxy, with native memory that stays alive until LMDB has used it.
 *
 * <p>lmdbjava's own {@code PROXY_BA} copies a key or value into native memory it allocates per
 * call and keeps no reference to: the memory is freed by the garbage collector's cleanup whenever
 * the allocation becomes unreachable, which can be before {@code mdb_put} or {@code mdb_get} read
 * it. A collection at that moment made LMDB read freed memory: a crash in {@code mdb_put}, or a
 * value written from whatever reused that memory. Here each thread copies into a few native
 * buffers it owns and reuses (grown when a larger key or value comes): one LMDB call passes at
 * most a key and a value in, so with four buffers in rotation a buffer is never reused before the
 * call that received it returned. No allocation per call, nothing for the collector to free.
 */
final class PinnedByteArrays extends BufferProxy<byte[]> {
    static final BufferProxy<byte[]> PROXY = new PinnedByteArrays();

    private static final MemoryManager MEMORY = jnr.ffi.Runtime.getSystemRuntime().getMemoryManager();
    private static final int SLOTS = 4;
    private static final int MIN_CAPACITY = 256;

    /** A thread's native buffers, used in rotation. */
    private static final class Slots {
        final Pointer[] buffers = new Pointer[SLOTS];
        int next;

        Pointer take(int size) {
            int i = next;
            next = (next + 1) % SLOTS;
            Pointer p = buffers[i];
            if (p == null || p.size() < size) {
                p = MEMORY.allocateDirect(Math.max(MIN_CAPACITY, Integer.highestOneBit(Math.max(1, size - 1)) << 1));
                buffers[i] = p;
            }
            return p;
        }
    }

    private static final ThreadLocal<Slots> SLOTS_OF_THREAD = ThreadLocal.withInitial(Slots::new);

    private PinnedByteArrays() {
    }

    @Override
    protected byte[] allocate() {
        return new byte[0];
    }

    @Override
    protected Comparator<byte[]> getComparator(DbiFlags... flags) {
        return ByteArrayProxy::compareArrays;
    }

    @Override
    protected void deallocate(byte[] buffer) {
        // nothing to free: the arrays are the collector's, the native buffers the thread's
    }

    @Override
    protected byte[] getBytes(byte[] buffer) {
        return buffer;
    }

    @Override
    protected void in(byte[] buffer, Pointer ptr, long ptrAddr) {
        Pointer native_ = SLOTS_OF_THREAD.get().take(buffer.length);
        native_.put(0, buffer, 0, buffer.length);
        ptr.putLong(STRUCT_FIELD_OFFSET_SIZE, buffer.length);
        ptr.putAddress(STRUCT_FIELD_OFFSET_DATA, native_.address());
    }

    @Override
    protected void in(byte[] buffer, int size, Pointer ptr, long ptrAddr) {
        // reserved writes (MDB_RESERVE) are not used with byte arrays
    }

    @Override
    protected byte[] out(byte[] buffer, Pointer ptr, long ptrAddr) {
        long address = ptr.getAddress(STRUCT_FIELD_OFFSET_DATA);
        int size = (int) ptr.getLong(STRUCT_FIELD_OFFSET_SIZE);
        byte[] copy = new byte[size];
        MEMORY.newPointer(address, size).get(0, copy, 0, size);
        return copy;
    }
}
