package io.etcdj.server.etcdserver;

import io.etcdj.api.etcdserverpb.HashKVResponse;
import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.server.log.Log;
import java.io.IOException;

/**
 * etcd's initial corruption check (--experimental-initial-corrupt-check, feature gate
 * InitialCorruptCheck): before the member starts, its HashKV at its current revision is compared
 * with every peer's at the same revision. A peer that cannot answer (not started yet, behind,
 * compacted past it) is only reported; a different hash at the same compact revision stops the
 * start-up with "found data inconsistency with peers".
 */
final class CorruptionCheck {
    private static final Log LOG = Log.get("etcdserver/corrupt");

    private final EtcdServer server;

    CorruptionCheck(EtcdServer server) {
        this.server = server;
    }

    void initial(long timeoutMillis) throws IOException {
        String local = Long.toHexString(server.memberId());
        LOG.info("starting initial corruption check", "local-member-id", local, "timeout", timeoutMillis + "ms");
        HashKVResponse mine = server.maintenance().hashKv(0);
        long rev = mine.getHeader().getRevision();
        int mismatch = 0;
        for (Member m : server.stateMachines().membership.members()) {
            if (m.getID() == server.memberId()) {
                continue;
            }
            String peer = Long.toHexString(m.getID());
            HashKVResponse theirs;
            try {
                theirs = server.transport().hashKvOf(m.getID(), rev, timeoutMillis);
            } catch (RuntimeException e) {
                LOG.warn("cannot fetch hash from remote peer", "local-member-id", local, "remote-peer-id", peer,
                        "requested-revision", rev, "error", String.valueOf(e.getMessage()));
                continue;
            }
            if (theirs.getHash() == mine.getHash()) {
                continue;
            }
            if (theirs.getCompactRevision() == mine.getCompactRevision()) {
                LOG.warn("found different hash values from remote peer", "local-member-id", local,
                        "local-member-revision", rev, "local-member-compact-revision", mine.getCompactRevision(),
                        "local-member-hash", Integer.toUnsignedLong(mine.getHash()), "remote-peer-id", peer,
                        "remote-peer-hash", Integer.toUnsignedLong(theirs.getHash()));
                mismatch++;
            } else {
                LOG.warn("found different compact revision values from remote peer", "local-member-id", local,
                        "local-member-compact-revision", mine.getCompactRevision(), "remote-peer-id", peer,
                        "remote-peer-compact-revision", theirs.getCompactRevision());
            }
        }
        if (mismatch > 0) {
            throw new IOException(local + " found data inconsistency with peers");
        }
        LOG.info("initial corruption checking passed; no corruption", "local-member-id", local);
    }
}
