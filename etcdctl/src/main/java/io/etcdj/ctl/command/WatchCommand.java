package io.etcdj.ctl.command;

import io.etcdj.api.etcdserverpb.WatchCreateRequest;
import io.etcdj.api.etcdserverpb.WatchRequest;
import io.etcdj.api.etcdserverpb.WatchResponse;
import io.etcdj.api.mvccpb.Event;
import io.etcdj.client.EtcdClientException;
import io.etcdj.ctl.cli.CtlCommand;
import io.etcdj.ctl.cli.CtlException;
import io.etcdj.ctl.cli.ExitCodes;
import io.etcdj.ctl.printer.GoQuote;
import io.etcdj.ctl.printer.KeyRanges;
import io.etcdj.ctl.printer.Printer;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * {@code watch [key] [range_end] [-- cmd args]}: prints events until interrupted; with a command after
 * {@code --} runs it for every event with ETCD_WATCH_* variables set. {@code -i} reads watch commands
 * from standard input.
 */
@Command(name = "watch", description = "Watches events stream on keys or prefixes",
        customSynopsis = "etcdctl watch [options] [key or prefix] [range_end] [--] [exec-command arg1 arg2 ...] [flags]")
public final class WatchCommand extends CtlCommand {

    private static final Object END = new Object();

    @Option(names = {"-i", "--interactive"}, arity = "0..1", description = "Interactive mode")
    boolean interactive;

    @Option(names = "--prefix", arity = "0..1", description = "Watch on a prefix if prefix is set")
    boolean prefix;

    @Option(names = "--rev", defaultValue = "0", description = "Revision to start watching")
    long rev;

    @Option(names = "--prev-kv", arity = "0..1", description = "get the previous key-value pair before the event happens")
    boolean prevKv;

    @Option(names = "--progress-notify", arity = "0..1", description = "get periodic watch progress notification from server")
    boolean progressNotify;

    @Parameters(arity = "0..*")
    List<String> args;

    /** A command run per event (or any line of interactive mode) must be the caller's own child. */
    @Override
    public boolean needsOwnProcess(boolean terminal) {
        if (interactive) {
            return true;
        }
        List<String> keys = new ArrayList<>();
        List<String> exec = new ArrayList<>();
        splitExec(ctx.commandArgs(), keys, exec);
        return !exec.isEmpty();
    }

    @Override
    protected void run() {
        if (interactive) {
            runInteractive();
            return;
        }
        List<String> keys = new ArrayList<>();
        List<String> exec = new ArrayList<>();
        splitExec(ctx.commandArgs(), keys, exec);
        Map<String, String> env = ctx.env();
        if (keys.isEmpty() && env.containsKey("ETCDCTL_WATCH_KEY")) {
            keys.add(env.get("ETCDCTL_WATCH_KEY"));
            if (env.containsKey("ETCDCTL_WATCH_RANGE_END")) {
                keys.add(env.get("ETCDCTL_WATCH_RANGE_END"));
            }
        }
        WatchCreateRequest req = request(keys);
        ctx.checkFormat();
        watch(List.of(req), exec);
    }

    /** Keys are the positional words before "--"; the exec command follows it. */
    private void splitExec(List<String> raw, List<String> keys, List<String> exec) {
        boolean afterDash = false;
        for (String a : raw) {
            if (!afterDash && a.equals("--")) {
                afterDash = true;
            } else if (afterDash) {
                exec.add(a);
            }
        }
        List<String> positional = new ArrayList<>(orEmpty(args));
        positional.removeAll(exec);
        keys.addAll(positional);
        if (!afterDash && keys.size() > 2) {
            exec.addAll(keys.subList(2, keys.size()));
            keys.subList(2, keys.size()).clear();
        }
    }

    WatchCreateRequest request(List<String> keys) {
        if (keys.isEmpty() || keys.size() > 2) {
            throw CtlException.badArgs("bad number of arguments");
        }
        if (prefix && keys.size() == 2) {
            throw CtlException.badArgs("`range_end` and `--prefix` are mutually exclusive");
        }
        WatchCreateRequest.Builder b = WatchCreateRequest.newBuilder().setKey(Args.bytes(keys.get(0)))
                .setStartRevision(rev).setPrevKv(prevKv).setProgressNotify(progressNotify);
        if (keys.size() == 2) {
            b.setRangeEnd(Args.bytes(keys.get(1)));
        }
        if (prefix) {
            b.setRangeEnd(keys.get(0).isEmpty() ? KeyRanges.FROM_KEY : KeyRanges.prefixEnd(b.getKey()));
        }
        return b.build();
    }

    /**
     * Reads {@code watch ...} lines and starts each watch at once while earlier ones keep printing;
     * like etcdctl, the end of input ends the command with an error.
     */
    private void runInteractive() {
        ctx.checkFormat();
        BlockingQueue<Object> queue = new LinkedBlockingQueue<>();
        StreamObserver<WatchRequest> stream = open(queue);
        Thread printer = new Thread(() -> {
            try {
                pump(queue, Integer.MAX_VALUE, List.of());
            } catch (RuntimeException ended) {
                // The stream ended; the reading thread reports how the command ends.
            }
        }, "watch-printer");
        printer.setDaemon(true);
        printer.start();
        try {
            while (true) {
                String line;
                try {
                    line = ctx.stdinReader().readLine();
                } catch (IOException e) {
                    throw new CtlException(ExitCodes.INVALID_INPUT, "Error reading watch request line: " + e.getMessage());
                }
                if (line == null) {
                    throw new CtlException(ExitCodes.INVALID_INPUT, "Error reading watch request line: EOF");
                }
                WatchCreateRequest create = parseLine(line);
                if (create != null) {
                    stream.onNext(WatchRequest.newBuilder().setCreateRequest(create).build());
                }
            }
        } finally {
            printer.interrupt();
            stream.onCompleted();
        }
    }

    /** One interactive line: a create request, or null after reporting why the line was skipped. */
    private WatchCreateRequest parseLine(String line) {
        List<String> words = TxnParser.split(line);
        if (words.isEmpty() || !words.get(0).equals("watch")) {
            ctx.err().println("Invalid command " + line + " (only support watch)");
            return null;
        }
        if (words.size() < 2) {
            ctx.err().println("Invalid command " + line + " (command type or key is not provided)");
            return null;
        }
        WatchCommand w = new WatchCommand();
        try {
            new CommandLine(w).parseArgs(words.subList(1, words.size()).toArray(new String[0]));
        } catch (CommandLine.ParameterException e) {
            throw CtlException.badArgs(io.etcdj.ctl.cli.EtcdctlApp.describe(e));
        }
        List<String> keys = new ArrayList<>(orEmpty(w.args));
        if (keys.size() > 2) {
            keys.subList(2, keys.size()).clear();
        }
        try {
            return w.request(keys);
        } catch (CtlException e) {
            ctx.err().println("Invalid command " + line + " (" + e.getMessage() + ")");
            return null;
        }
    }

    private StreamObserver<WatchRequest> open(BlockingQueue<Object> queue) {
        return ctx.client().watchAsync().watch(new StreamObserver<>() {
            @Override
            public void onNext(WatchResponse value) {
                queue.add(value);
            }

            @Override
            public void onError(Throwable t) {
                queue.add(t);
            }

            @Override
            public void onCompleted() {
                queue.add(END);
            }
        });
    }

    private void watch(List<WatchCreateRequest> creates, List<String> exec) {
        BlockingQueue<Object> queue = new LinkedBlockingQueue<>();
        StreamObserver<WatchRequest> stream = open(queue);
        for (WatchCreateRequest c : creates) {
            stream.onNext(WatchRequest.newBuilder().setCreateRequest(c).build());
        }
        try {
            pump(queue, creates.size(), exec);
        } finally {
            stream.onCompleted();
        }
        throw new CtlException(ExitCodes.INTERRUPTED, "watch is canceled by the server");
    }

    /** Prints responses until {@code open} watches were canceled, the stream ended, or interruption. */
    private void pump(BlockingQueue<Object> queue, int open, List<String> exec) {
        Printer printer = ctx.printer();
        try {
            while (open > 0) {
                Object next = queue.take();
                if (next instanceof Throwable t) {
                    throw CtlException.error(EtcdClientException.from(Status.fromThrowable(t)).getMessage());
                }
                if (next == END) {
                    return;
                }
                WatchResponse r = (WatchResponse) next;
                if (r.getCreated() && r.getEventsCount() == 0 && !r.getCanceled()) {
                    continue;
                }
                if (r.getCanceled()) {
                    ctx.err().println("watch was canceled (" + cancelReason(r) + ")");
                    open--;
                    continue;
                }
                if (r.getEventsCount() == 0) {
                    if ("simple".equals(ctx.options().writeOut())) {
                        ctx.out().println("progress notify: " + r.getHeader().getRevision());
                    }
                    continue;
                }
                printer.watch(r);
                if (!exec.isEmpty()) {
                    runExec(exec, r);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String cancelReason(WatchResponse r) {
        if (r.getCompactRevision() != 0) {
            return "etcdserver: mvcc: required revision has been compacted";
        }
        return r.getCancelReason().isEmpty() ? "<nil>" : r.getCancelReason();
    }

    private void runExec(List<String> exec, WatchResponse r) {
        for (Event ev : r.getEventsList()) {
            Map<String, String> env = Map.of(
                    "ETCD_WATCH_REVISION", Long.toString(r.getHeader().getRevision()),
                    "ETCD_WATCH_EVENT_TYPE", "\"" + (ev.getType() == Event.EventType.DELETE ? "DELETE" : "PUT") + "\"",
                    "ETCD_WATCH_KEY", GoQuote.quote(ev.getKv().getKey().toByteArray()),
                    "ETCD_WATCH_VALUE", GoQuote.quote(ev.getKv().getValue().toByteArray()));
            try {
                ChildProcess.run(ctx, exec, env);
            } catch (IOException e) {
                ctx.err().println("command " + exec + " (" + e.getMessage() + ")");
            }
        }
    }
}
