package io.etcdj.server.etcdserver;

import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.ByteString;
import io.etcdj.api.authpb.Permission;
import io.etcdj.api.etcdserverpb.AuthEnableRequest;
import io.etcdj.api.etcdserverpb.AuthRoleAddRequest;
import io.etcdj.api.etcdserverpb.AuthRoleGrantPermissionRequest;
import io.etcdj.api.etcdserverpb.AuthUserAddRequest;
import io.etcdj.api.etcdserverpb.AuthUserGrantRoleRequest;
import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.api.etcdserverpb.ResponseHeader;
import io.etcdj.raftpb.ConfChangeType;
import io.etcdj.server.api.Caller;
import io.etcdj.server.api.GrpcErrors;
import io.etcdj.server.apply.ApplyResult;
import io.etcdj.server.apply.StateMachines;
import io.etcdj.server.auth.AuthInfo;
import io.etcdj.server.auth.Passwords;
import io.etcdj.server.mvcc.ChangeEvent;
import io.etcdj.server.mvcc.ReadView;
import io.etcdj.server.mvcc.WriteBatch;
import io.etcdj.serverpb.InternalRaftRequest;
import io.grpc.Status;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What the adapters stand on, without Raft or gRPC: the member's state machines on a real backend
 * file, a proposer that applies each request at once through the applier chain (as the apply loop
 * would once Raft committed it), headers of a fixed cluster, member and term, and a read barrier
 * the test opens.
 */
final class OpsFixture implements AutoCloseable {
    static final long CLUSTER = 0xc1;
    static final long MEMBER = 0x8e;
    static final long TERM = 7;

    final StateMachines sm;
    /** Every request proposed, as the core would put it into a Raft entry. */
    final List<InternalRaftRequest> proposed = new ArrayList<>();
    /** The longest each proposal may wait, as the adapter asked. */
    final List<Long> timeouts = new ArrayList<>();
    /** When set, proposals fail with it before Raft, as the core refuses them (NOSPACE, too many requests). */
    RuntimeException refuse;
    /** The ReadIndex barrier linearizable requests wait on; completed unless a test holds it. */
    CompletableFuture<Void> barrier = CompletableFuture.completedFuture(null);
    int barriers;
    /** Told each applied request's changes, as the apply loop tells the watch hub. */
    Consumer<List<ChangeEvent>> changes = c -> { };
    private long index;

    final Proposer proposer = (r, timeoutNanos, callerHoldsNoLocks) -> apply(r, timeoutNanos);

    final Headers headers = new Headers() {
        @Override
        public ResponseHeader header() {
            return header(sm.store.currentRevision());
        }

        @Override
        public ResponseHeader header(long revision) {
            return ResponseHeader.newBuilder().setClusterId(CLUSTER).setMemberId(MEMBER).setRaftTerm(TERM)
                    .setRevision(revision).build();
        }
    };

    final Reads reads = new Reads() {
        @Override
        public CompletableFuture<Void> barrier() {
            barriers++;
            return barrier;
        }

        @Override
        public <T> CompletableFuture<T> read(Function<ReadView, T> read) {
            try (ReadView v = sm.store.openRead()) {
                return CompletableFuture.completedFuture(read.apply(v));
            }
        }
    };

    OpsFixture(Path dir) {
        this.sm = StateMachines.open(dir.resolve("db"), 64L << 20, System::nanoTime, 2);
    }

    private CompletableFuture<ApplyResult> apply(InternalRaftRequest.Builder r, long timeoutNanos) {
        if (refuse != null) {
            return CompletableFuture.failedFuture(refuse);
        }
        InternalRaftRequest request = r.setId(++index).setOrigin(MEMBER).build();
        proposed.add(request);
        timeouts.add(timeoutNanos);
        WriteBatch b = sm.store.openWriteBatch();
        ApplyResult res = sm.applier.apply(request, b);
        changes.accept(b.commit(index, TERM));
        return res.error() != null ? CompletableFuture.failedFuture(res.error()) : CompletableFuture.completedFuture(res);
    }

    /** Adds {@code m} to the membership, as an applied conf change would. */
    void addMember(Member m) {
        WriteBatch b = sm.store.openWriteBatch();
        sm.membership.apply(b.backendTx(), m.getIsLearner() ? ConfChangeType.ConfChangeAddLearnerNode
                : ConfChangeType.ConfChangeAddNode, m.getID(), m);
        b.commit(++index, TERM);
    }

    InternalRaftRequest lastProposed() {
        return proposed.get(proposed.size() - 1);
    }

    /**
     * Turns auth on with root (password "rootpw") and alice (password "alicepw"), whose role
     * {@code reader} may read [a, b); returns alice as a caller, checked at the current auth revision.
     */
    Caller enableAuthWithAlice() {
        ok(InternalRaftRequest.newBuilder().setUserAdd(user("root", "rootpw")));
        ok(InternalRaftRequest.newBuilder().setUserGrantRole(AuthUserGrantRoleRequest.newBuilder().setUser("root").setRole("root")));
        ok(InternalRaftRequest.newBuilder().setRoleAdd(AuthRoleAddRequest.newBuilder().setName("reader")));
        ok(InternalRaftRequest.newBuilder().setRoleGrantPermission(AuthRoleGrantPermissionRequest.newBuilder().setName("reader")
                .setPerm(Permission.newBuilder().setPermType(Permission.Type.READ).setKey(bs("a")).setRangeEnd(bs("b")))));
        ok(InternalRaftRequest.newBuilder().setUserAdd(user("alice", "alicepw")));
        ok(InternalRaftRequest.newBuilder().setUserGrantRole(AuthUserGrantRoleRequest.newBuilder().setUser("alice").setRole("reader")));
        ok(InternalRaftRequest.newBuilder().setAuthEnable(AuthEnableRequest.getDefaultInstance()));
        return as("alice");
    }

    /** {@code user} as a caller at the current auth revision, without a deadline. */
    Caller as(String user) {
        return Caller.of(new AuthInfo(user, sm.auth.revision()));
    }

    private void ok(InternalRaftRequest.Builder r) {
        apply(r, Caller.NO_DEADLINE).join();
    }

    private static AuthUserAddRequest.Builder user(String name, String password) {
        return AuthUserAddRequest.newBuilder().setName(name).setHashedPassword(Passwords.hash(password, Passwords.MIN_COST));
    }

    static ByteString bs(String s) {
        return ByteString.copyFrom(s, StandardCharsets.UTF_8);
    }

    /** The result a client gets: the future's value, or its failure as the gRPC status etcd sends. */
    static <T> T answer(CompletableFuture<T> f) throws Exception {
        return f.get(10, TimeUnit.SECONDS);
    }

    /** The gRPC status a client sees for a failed call. */
    static Status clientSees(CompletableFuture<?> f) {
        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(10, TimeUnit.SECONDS));
        return GrpcErrors.toStatus(e.getCause()).getStatus();
    }

    /**
     * The gRPC status a client sees for a call the service makes as {@code call}: a failure thrown
     * at once (a request refused before it is proposed) or a failed future, as the services map both.
     */
    static Status clientSees(Supplier<CompletableFuture<?>> call) {
        CompletableFuture<?> f;
        try {
            f = call.get();
        } catch (RuntimeException e) {
            return GrpcErrors.toStatus(e).getStatus();
        }
        return clientSees(f);
    }

    @Override
    public void close() {
        sm.close();
    }
}
