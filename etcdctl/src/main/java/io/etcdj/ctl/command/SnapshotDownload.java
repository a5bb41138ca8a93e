package io.etcdj.ctl.command;

import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.api.etcdserverpb.MemberListRequest;
import io.etcdj.api.etcdserverpb.SnapshotRequest;
import io.etcdj.api.etcdserverpb.SnapshotResponse;
import io.etcdj.api.etcdserverpb.StatusRequest;
import io.etcdj.cli.CliException;
import io.etcdj.cli.ExitCodes;
import io.etcdj.cli.progress.ProgressLine;
import io.etcdj.client.EtcdClient;
import io.etcdj.client.EtcdClientException;
import io.etcdj.ctl.cli.CtlContext;
import io.etcdj.format.GoBytes;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;

/**
 * One attempt of {@code snapshot save}: streams one endpoint's snapshot into the {@code .part} file,
 * with etcdctl 3.4's log lines and, at a terminal, a progress line (bytes, rate, ETA: each chunk
 * says how many bytes remain). A failure removes the partial file and is thrown as etcdctl's error.
 */
final class SnapshotDownload {

    /** What one successful attempt fetched: its size and the member that sent it. */
    record Result(String endpoint, String member, long size) {
    }

    private SnapshotDownload() {
    }

    /** Fetches {@code ep}'s snapshot; with {@code identify} the result names the member that sent it. */
    static Result fetch(CtlContext ctx, String ep, Path part, String partName, SnapshotLog log, boolean identify) {
        long start = System.nanoTime();
        OutputStream os;
        try {
            os = Files.newOutputStream(part);
        } catch (IOException e) {
            throw new CliException(ExitCodes.INTERRUPTED, "could not open " + partName + " (open " + partName
                    + ": no such file or directory)", e);
        }
        log.epoch("snapshot/v3_snapshot.go:119", "created temporary db file", ",\"path\":\"" + partName + "\"");
        long size = 0;
        long memberId = 0;
        String member;
        try (EtcdClient c = ctx.newClient(List.of(ep)); os;
                ProgressLine progress = CommandProgress.line(ctx, "snapshot save", ProgressLine.Unit.BYTES, "")) {
            if (identify) {
                // The stream waits for a connection without a deadline; with other endpoints to try, a
                // member that does not answer a status call within the command timeout is skipped.
                memberId = c.maintenance(s -> s.status(StatusRequest.getDefaultInstance())).getHeader().getMemberId();
            }
            Iterator<SnapshotResponse> it = c.maintenanceStream().snapshot(SnapshotRequest.getDefaultInstance());
            log.iso("clientv3/maintenance.go:200", "opened snapshot stream; downloading");
            log.epoch("snapshot/v3_snapshot.go:127", "fetching snapshot", ",\"endpoint\":\"" + ep + "\"");
            it = renewedIfTokenExpired(c, it);
            while (it.hasNext()) {
                SnapshotResponse chunk = it.next();
                chunk.getBlob().writeTo(os);
                size += chunk.getBlob().size();
                if (memberId == 0) {
                    memberId = chunk.getHeader().getMemberId();
                }
                progress.update(size, size + chunk.getRemainingBytes());
            }
            progress.close();
            log.iso("clientv3/maintenance.go:208", "completed snapshot read; closing");
            member = identify ? describe(c, memberId) : "";
        } catch (StatusRuntimeException e) {
            deleteQuietly(part);
            throw new CliException(ExitCodes.INTERRUPTED, EtcdClientException.from(Status.fromThrowable(e)).getMessage());
        } catch (IOException e) {
            deleteQuietly(part);
            throw new CliException(ExitCodes.INTERRUPTED, "could not write snapshot: " + e.getMessage(), e);
        } catch (CliException e) {
            deleteQuietly(part);
            throw e;
        } catch (EtcdClientException e) {
            deleteQuietly(part);
            throw new CliException(ExitCodes.INTERRUPTED, e.getMessage(), e);
        }
        log.epoch("snapshot/v3_snapshot.go:142", "fetched snapshot", ",\"endpoint\":\"" + ep
                + "\",\"size\":\"" + GoBytes.format(size) + "\",\"took\":"
                + SnapshotLog.seconds(System.nanoTime() - start));
        return new Result(ep, member, size);
    }

    /**
     * The stream again, once, when the member refused it for an expired token before sending
     * anything: a short JWT {@code ttl} (etcd's e2e suite uses 1 s) can lapse between the token and
     * the stream on a loaded machine.
     */
    private static Iterator<SnapshotResponse> renewedIfTokenExpired(EtcdClient c, Iterator<SnapshotResponse> it) {
        try {
            it.hasNext();
            return it;
        } catch (StatusRuntimeException e) {
            if (!c.renewTokenAfter(e)) {
                throw e;
            }
            return c.maintenanceStream().snapshot(SnapshotRequest.getDefaultInstance());
        }
    }

    /** "member m2 (8e9e05c52164694d)", or by ID alone when the member list cannot be read. */
    private static String describe(EtcdClient c, long memberId) {
        if (memberId == 0) {
            return "the member";
        }
        String id = String.format("%x", memberId);
        try {
            for (Member m : c.cluster(s -> s.memberList(MemberListRequest.getDefaultInstance())).getMembersList()) {
                if (m.getID() == memberId && !m.getName().isEmpty()) {
                    return "member " + m.getName() + " (" + id + ")";
                }
            }
        } catch (EtcdClientException | StatusRuntimeException e) {
            // The snapshot is saved; the name is only a courtesy.
        }
        return "member " + id;
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // Best effort: the partial file is harmless.
        }
    }
}
