package io.etcdj.server.auth;

import io.etcdj.api.authpb.Permission;
import io.etcdj.api.authpb.Role;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The keys one user may read and may write: the union of the permissions of all its roles, as
 * half-open intervals of keys (etcd's range permission cache). A permission on a single key is
 * the interval [key, key + "\0"); a range end of "\0" (etcdctl's {@code --from-key}) means no upper
 * bound. A request is permitted when every key it can touch lies in the union.
 */
public final class KeyPermissions {
    private static final byte[] NO_END = new byte[0];

    private final List<byte[][]> read;
    private final List<byte[][]> write;

    private KeyPermissions(List<byte[][]> read, List<byte[][]> write) {
        this.read = read;
        this.write = write;
    }

    static KeyPermissions of(List<Role> roles) {
        List<byte[][]> read = new ArrayList<>();
        List<byte[][]> write = new ArrayList<>();
        for (Role role : roles) {
            for (Permission p : role.getKeyPermissionList()) {
                byte[][] ivl = interval(p.getKey().toByteArray(), p.getRangeEnd().toByteArray());
                if (p.getPermType() == Permission.Type.READ || p.getPermType() == Permission.Type.READWRITE) {
                    read.add(ivl);
                }
                if (p.getPermType() == Permission.Type.WRITE || p.getPermType() == Permission.Type.READWRITE) {
                    write.add(ivl);
                }
            }
        }
        return new KeyPermissions(merge(read), merge(write));
    }

    public boolean canRead(byte[] key, byte[] rangeEnd) {
        return covers(read, interval(key, rangeEnd));
    }

    public boolean canWrite(byte[] key, byte[] rangeEnd) {
        return covers(write, interval(key, rangeEnd));
    }

    /** [key, end) of a permission or a request; an empty end array stands for "no upper bound". */
    private static byte[][] interval(byte[] key, byte[] rangeEnd) {
        if (rangeEnd == null || rangeEnd.length == 0) {
            byte[] next = Arrays.copyOf(key, key.length + 1);
            return new byte[][] {key, next};
        }
        if (rangeEnd.length == 1 && rangeEnd[0] == 0) {
            return new byte[][] {key, NO_END};
        }
        return new byte[][] {key, rangeEnd};
    }

    private static int compareEnds(byte[] a, byte[] b) {
        if (a.length == 0) {
            return b.length == 0 ? 0 : 1;
        }
        if (b.length == 0) {
            return -1;
        }
        return Arrays.compareUnsigned(a, b);
    }

    /** Sorted, non-overlapping, non-adjacent intervals covering the same keys. */
    private static List<byte[][]> merge(List<byte[][]> ivls) {
        ivls.sort(Comparator.comparing((byte[][] i) -> i[0], Arrays::compareUnsigned));
        List<byte[][]> out = new ArrayList<>();
        for (byte[][] i : ivls) {
            if (i[1].length != 0 && Arrays.compareUnsigned(i[0], i[1]) >= 0) {
                continue; // an empty interval grants nothing
            }
            if (!out.isEmpty()) {
                byte[][] last = out.get(out.size() - 1);
                // last.end >= i.begin: they overlap or touch
                if (last[1].length == 0 || Arrays.compareUnsigned(last[1], i[0]) >= 0) {
                    if (compareEnds(i[1], last[1]) > 0) {
                        out.set(out.size() - 1, new byte[][] {last[0], i[1]});
                    }
                    continue;
                }
            }
            out.add(i);
        }
        return out;
    }

    private static boolean covers(List<byte[][]> merged, byte[][] req) {
        if (req[1].length != 0 && Arrays.compareUnsigned(req[0], req[1]) >= 0) {
            return false; // etcd refuses a range whose end is not after its start
        }
        for (byte[][] i : merged) {
            if (Arrays.compareUnsigned(i[0], req[0]) <= 0 && compareEnds(i[1], req[1]) >= 0
                    && (i[1].length == 0 || Arrays.compareUnsigned(i[1], req[0]) > 0)) {
                return true;
            }
        }
        return false;
    }
}
