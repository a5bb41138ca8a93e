package io.etcdj.ctl.command;

import io.etcdj.cli.progress.ProgressLine;
import io.etcdj.cli.progress.Terminals;
import io.etcdj.ctl.cli.CtlContext;

/**
 * The progress line of a long command (beyond etcd: snapshot save, defrag, recover-space). It is
 * drawn on stderr only when a person watches: stdin, stdout and stderr are terminals of this
 * process (commands that draw one run in a process of their own at a terminal, see
 * {@code needsOwnProcess}) and the output format is not JSON. Otherwise nothing is written, so
 * scripts see exactly etcdctl's output.
 */
final class CommandProgress {

    private CommandProgress() {
    }

    /** Whether this invocation may draw a progress line. */
    static boolean shown(CtlContext ctx) {
        return Terminals.progressShown(ctx.out().stream(), ctx.err(), "json".equals(ctx.options().writeOut()));
    }

    static ProgressLine line(CtlContext ctx, String label, ProgressLine.Unit unit, String noun) {
        return ProgressLine.when(shown(ctx), ctx.err(), label, unit, noun);
    }
}
