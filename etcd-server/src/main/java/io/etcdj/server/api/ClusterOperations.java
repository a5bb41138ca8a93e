package io.etcdj.server.api;

import io.etcdj.api.etcdserverpb.MemberAddRequest;
import io.etcdj.api.etcdserverpb.MemberAddResponse;
import io.etcdj.api.etcdserverpb.MemberListResponse;
import io.etcdj.api.etcdserverpb.MemberPromoteResponse;
import io.etcdj.api.etcdserverpb.MemberRemoveResponse;
import io.etcdj.api.etcdserverpb.MemberUpdateRequest;
import io.etcdj.api.etcdserverpb.MemberUpdateResponse;
import java.util.concurrent.CompletableFuture;

/**
 * What the Cluster service needs of the member (owned here, implemented by the server, which
 * validates changes with the membership rules and applies them as Raft conf changes).
 */
public interface ClusterOperations {
    CompletableFuture<MemberListResponse> list(boolean linearizable);

    CompletableFuture<MemberAddResponse> add(MemberAddRequest r);

    CompletableFuture<MemberRemoveResponse> remove(long id);

    CompletableFuture<MemberUpdateResponse> update(MemberUpdateRequest r);

    CompletableFuture<MemberPromoteResponse> promote(long id);
}
