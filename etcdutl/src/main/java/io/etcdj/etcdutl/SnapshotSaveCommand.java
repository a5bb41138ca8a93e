package io.etcdj.etcdutl;

import io.etcdj.cli.CliException;
import io.etcdj.cli.ExitCodes;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * etcdutl has no network side: like etcd 3.6 it keeps a hidden {@code snapshot save} that only
 * points the user to etcdctl, so old scripts fail with a useful message.
 */
@Command(name = "save", hidden = true)
final class SnapshotSaveCommand implements Callable<Integer> {
    @Parameters(arity = "0..*", hidden = true)
    List<String> ignored;

    @Override
    public Integer call() {
        throw new CliException(ExitCodes.BAD_ARGS, "In order to download snapshot use: `etcdctl snapshot save ...`");
    }
}
