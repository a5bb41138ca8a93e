package io.etcdj.server.etcdserver;

import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.raftpb.ConfChangeType;
import io.etcdj.server.apply.ApplyResult;
import java.util.concurrent.CompletableFuture;

/** Proposes a membership change as a Raft conf change; completes when it is applied on this member. */
@FunctionalInterface
interface ConfChangeProposer {
    /** {@code context}: the member record the change carries (none for a removal or a promotion). */
    CompletableFuture<ApplyResult> propose(ConfChangeType type, long nodeId, Member context);
}
