package io.etcdj.ctl.command;

import io.etcdj.api.etcdserverpb.SnapshotRequest;
import io.etcdj.api.etcdserverpb.SnapshotResponse;
import io.etcdj.client.EtcdClient;
import io.etcdj.client.EtcdClientException;
import io.etcdj.ctl.cli.CtlCommand;
import io.etcdj.ctl.cli.CtlException;
import io.etcdj.ctl.cli.ExitCodes;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Iterator;
import java.util.List;

/** {@code snapshot save file}: streams the backend snapshot of one endpoint into a file. */
@Command(name = "snapshot", description = "Manages etcd node snapshots",
        customSynopsis = "etcdctl snapshot <subcommand> [flags]", subcommands = {SnapshotCommand.Save.class})
public final class SnapshotCommand {

    /** Writes to {@code file.part} and renames it when complete, so a failed save leaves no torn file. */
    @Command(name = "save", description = "Stores an etcd node backend snapshot to a given file",
            customSynopsis = "etcdctl snapshot save <filename> [flags]")
    public static final class Save extends CtlCommand {
        @Parameters(arity = "0..*")
        List<String> args;

        @Override
        protected void run() {
            String arg = onlyArg(args, "snapshot save expects one argument");
            List<String> eps = ctx.options().endpoints();
            if (eps.size() != 1) {
                throw new CtlException(ExitCodes.INTERRUPTED, "snapshot must be requested to one selected node, not multiple ["
                        + String.join(" ", eps) + "]");
            }
            Path target = Path.of(arg);
            Path part = Path.of(arg + ".part");
            SnapshotLog log = new SnapshotLog(ctx.err());
            long start = System.nanoTime();
            long size = 0;
            OutputStream os;
            try {
                os = Files.newOutputStream(part);
            } catch (IOException e) {
                throw new CtlException(ExitCodes.INTERRUPTED, "could not open " + part + " (open " + part
                        + ": no such file or directory)", e);
            }
            log.epoch("snapshot/v3_snapshot.go:119", "created temporary db file", ",\"path\":\"" + part + "\"");
            try (EtcdClient c = ctx.newClient(eps); os) {
                Iterator<SnapshotResponse> it = c.maintenanceStream().snapshot(SnapshotRequest.getDefaultInstance());
                log.iso("clientv3/maintenance.go:200", "opened snapshot stream; downloading");
                log.epoch("snapshot/v3_snapshot.go:127", "fetching snapshot", ",\"endpoint\":\"" + eps.get(0) + "\"");
                while (it.hasNext()) {
                    SnapshotResponse chunk = it.next();
                    chunk.getBlob().writeTo(os);
                    size += chunk.getBlob().size();
                }
                log.iso("clientv3/maintenance.go:208", "completed snapshot read; closing");
            } catch (StatusRuntimeException e) {
                deleteQuietly(part);
                throw new CtlException(ExitCodes.INTERRUPTED, EtcdClientException.from(Status.fromThrowable(e)).getMessage());
            } catch (IOException e) {
                deleteQuietly(part);
                throw new CtlException(ExitCodes.INTERRUPTED, "could not write snapshot: " + e.getMessage(), e);
            }
            log.epoch("snapshot/v3_snapshot.go:142", "fetched snapshot", ",\"endpoint\":\"" + eps.get(0)
                    + "\",\"size\":\"" + io.etcdj.ctl.printer.Bytes.humanize(size) + "\",\"took\":"
                    + SnapshotLog.seconds(System.nanoTime() - start));
            try {
                Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                throw new CtlException(ExitCodes.INTERRUPTED, "could not rename " + part + " to " + target, e);
            }
            log.epoch("snapshot/v3_snapshot.go:152", "saved", ",\"path\":\"" + target + "\"");
            ctx.out().println("Snapshot saved at " + arg);
        }

        private static void deleteQuietly(Path p) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException ignored) {
                // Best effort: the partial file is harmless.
            }
        }
    }
}
