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
            List<String> a = orEmpty(args);
            if (a.size() != 1) {
                throw CtlException.badArgs("snapshot save expects one argument");
            }
            List<String> eps = ctx.options().endpoints();
            if (eps.size() != 1) {
                throw CtlException.badArgs("snapshot must be requested to one selected node, not multiple "
                        + eps);
            }
            Path target = Path.of(a.get(0));
            Path part = Path.of(a.get(0) + ".part");
            try (EtcdClient c = ctx.newClient(eps); OutputStream os = Files.newOutputStream(part)) {
                Iterator<SnapshotResponse> it = c.maintenanceStream().snapshot(SnapshotRequest.getDefaultInstance());
                while (it.hasNext()) {
                    it.next().getBlob().writeTo(os);
                }
            } catch (StatusRuntimeException e) {
                deleteQuietly(part);
                throw CtlException.error(EtcdClientException.from(Status.fromThrowable(e)).getMessage());
            } catch (IOException e) {
                deleteQuietly(part);
                throw new CtlException(ExitCodes.ERROR, "could not write snapshot: " + e.getMessage(), e);
            }
            try {
                Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                throw new CtlException(ExitCodes.ERROR, "could not rename " + part + " to " + target, e);
            }
            ctx.out().println("Snapshot saved at " + a.get(0));
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
