package io.etcdj.server.membership;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Member and cluster IDs as etcd derives them, so the same flags give the same IDs as etcd:
 * a member's ID is the first 8 bytes of SHA-1 over its sorted peer URLs, the cluster token and
 * (for runtime additions) the time; the cluster ID is SHA-1 over the sorted member IDs.
 */
public final class MemberIds {
    private MemberIds() {
    }

    public static long memberId(Collection<String> peerUrls, String clusterToken, Long unixSeconds) {
        List<String> sorted = new ArrayList<>(peerUrls);
        sorted.sort(null);
        StringBuilder sb = new StringBuilder();
        sorted.forEach(sb::append);
        sb.append(clusterToken);
        if (unixSeconds != null) {
            sb.append(unixSeconds);
        }
        return first8(sha1(sb.toString().getBytes(StandardCharsets.UTF_8)));
    }

    public static long clusterId(Collection<Long> memberIds) {
        List<Long> ids = new ArrayList<>(memberIds);
        ids.sort(Long::compareUnsigned);
        ByteBuffer b = ByteBuffer.allocate(8 * ids.size());
        ids.forEach(b::putLong);
        return first8(sha1(b.array()));
    }

    private static byte[] sha1(byte[] in) {
        try {
            return MessageDigest.getInstance("SHA-1").digest(in);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK always has SHA-1", e);
        }
    }

    private static long first8(byte[] h) {
        return ByteBuffer.wrap(h, 0, 8).getLong();
    }

    /** IDs print as etcd prints them: lower-case hex without leading zeros. */
    public static String hex(long id) {
        return Long.toHexString(id);
    }
}
