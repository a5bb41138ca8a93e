package io.etcdj.server.api;

import io.etcdj.api.etcdserverpb.AlarmRequest;
import io.etcdj.api.etcdserverpb.AlarmResponse;
import io.etcdj.api.etcdserverpb.DowngradeRequest;
import io.etcdj.api.etcdserverpb.DowngradeResponse;
import io.etcdj.api.etcdserverpb.HashKVResponse;
import io.etcdj.api.etcdserverpb.HashResponse;
import io.etcdj.api.etcdserverpb.MoveLeaderResponse;
import io.etcdj.api.etcdserverpb.ResponseHeader;
import io.etcdj.api.etcdserverpb.StatusResponse;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

/** What the Maintenance service needs of the member (owned here, implemented by the server). */
public interface MaintenanceOperations {
    StatusResponse status();

    /** Raised alarms of {@code r}'s type (all for NONE), read locally. */
    AlarmResponse alarms(AlarmRequest r);

    /** Raises or clears an alarm through Raft. */
    CompletableFuture<AlarmResponse> changeAlarm(Caller caller, AlarmRequest r);

    CompletableFuture<MoveLeaderResponse> moveLeader(long target);

    void defragment();

    HashResponse hash();

    HashKVResponse hashKv(long revision);

    /**
     * A snapshot of one consistent point of the backend, in etcd's file format (bbolt, etcd's
     * buckets, without the SHA-256 trailer), in a new temporary file that the caller deletes.
     */
    Path writeSnapshot() throws IOException;

    ResponseHeader header();

    /** etcd 3.6's downgrade: validate a target, enable a job (through Raft), or cancel it. */
    CompletableFuture<DowngradeResponse> downgrade(Caller caller, DowngradeRequest r);
}
