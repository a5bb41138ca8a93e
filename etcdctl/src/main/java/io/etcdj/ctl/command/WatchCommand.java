package io.etcdj.ctl.command;

import io.etcdj.api.etcdserverpb.WatchCreateRequest;
import io.etcdj.api.etcdserverpb.WatchProgressRequest;
import io.etcdj.api.etcdserverpb.WatchRequest;
import io.etcdj.api.etcdserverpb.WatchResponse;
import io.etcdj.api.mvccpb.Event;
import io.etcdj.cli.CliException;
import io.etcdj.cli.ExitCodes;
import io.etcdj.cli.GoQuote;
import io.etcdj.cli.PflagErrors;
import io.etcdj.client.EtcdClientException;
import io.etcdj.ctl.cli.CtlCommand;
import io.etcdj.ctl.cli.Interruption;
import io.etcdj.ctl.printer.KeyRanges;
import io.etcdj.ctl.printer.Printer;
import io.grpc.Status;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.LongConsumer;
import java.util.function.LongFunction;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code watch [key] [range_end] [-- cmd args]}: prints events until interrupted; with a command after
 * {@code --} runs it for every event with ETCD_WATCH_* variables set. {@code -i} reads watch commands
 * from standard input.
 */
@Command(name = "watch", description = "Watches events stream on keys or prefixes",
        customSynopsis = "etcdctl watch [options] [key or prefix] [range_end] [--] [exec-command arg1 arg2 ...] [flags]")
public final class WatchCommand extends CtlCommand {

    private static final Object END = new Object();
    private static final String NUMBER_ERROR = "bad number of arguments";
    private static final String SEPARATOR_ERROR = "bad number of arguments (found separator --, but no commands)";
    private static final String CONFLICT_ERROR = "bad number of arguments (found conflicting environment key)";

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
        try {
            parseArgs(ctx.commandArgs(), orEmpty(args), envKey(), "", keys, exec);
        } catch (CliException e) {
            return false;
        }
        return !exec.isEmpty();
    }

    private String envKey() {
        return ctx.env().getOrDefault("ETCDCTL_WATCH_KEY", "");
    }

    @Override
    protected void run() {
        String envKey = envKey();
        String envRange = ctx.env().getOrDefault("ETCDCTL_WATCH_RANGE_END", "");
        if (envKey.isEmpty() && !envRange.isEmpty()) {
            throw CliException.badArgs("ETCDCTL_WATCH_KEY is empty but got ETCDCTL_WATCH_RANGE_END="
                    + GoQuote.quote(envRange.getBytes(StandardCharsets.UTF_8)));
        }
        if (interactive) {
            runInteractive(envKey, envRange);
            return;
        }
        List<String> keys = new ArrayList<>();
        List<String> exec = new ArrayList<>();
        parseArgs(ctx.commandArgs(), orEmpty(args), envKey, envRange, keys, exec);
        WatchCreateRequest req = request(keys);
        ctx.checkFormat();
        watch(req, exec);
    }

    /**
     * etcdctl 3.4's reading of a watch command line: {@code raw} is what followed {@code watch}
     * (flags and {@code --} included), {@code positional} the words that are not flags. The command
     * to run is what follows the first {@code --}; the keys are the positional words before it, after
     * ETCDCTL_WATCH_KEY and ETCDCTL_WATCH_RANGE_END when set (a key given as well is an error).
     */
    private static void parseArgs(List<String> raw, List<String> positional, String envKey, String envRange,
            List<String> keys, List<String> exec) {
        int execIdx = raw.indexOf("--");
        boolean execExist = execIdx >= 0;
        if (execExist && execIdx == raw.size() - 1) {
            throw CliException.badArgs(SEPARATOR_ERROR);
        }
        if (!execExist && raw.isEmpty() && envKey.isEmpty()) {
            throw CliException.badArgs(NUMBER_ERROR);
        }
        if (execExist && !envKey.isEmpty()) {
            // the positional words before "--" must be none: the key comes from the environment
            int r = raw.size() - 1;
            for (int w = positional.size() - 1; w >= 0; w--) {
                if (r >= 0 && positional.get(w).equals(raw.get(r))) {
                    r--;
                    continue;
                }
                if (r == execIdx) {
                    throw CliException.badArgs(CONFLICT_ERROR);
                }
            }
        }
        if (!execExist && !positional.isEmpty() && !envKey.isEmpty()) {
            throw CliException.badArgs(CONFLICT_ERROR);
        }
        withCommand(raw, positional, envKey, envRange, keys, exec);
    }

    /** Splits off the command after the first "--" and puts the environment's key and range first. */
    private static void withCommand(List<String> withSeparator, List<String> positional, String envKey,
            String envRange, List<String> keys, List<String> exec) {
        int sep = withSeparator.indexOf("--");
        if (sep >= 0) {
            exec.addAll(withSeparator.subList(sep + 1, withSeparator.size()));
        }
        if (!envKey.isEmpty()) {
            keys.add(envKey);
            if (!envRange.isEmpty()) {
                keys.add(envRange);
            }
        }
        keys.addAll(positional);
        if (sep >= 0) {
            // the command's words are positional too: cut at the last word equal to its first
            int end = keys.lastIndexOf(exec.get(0));
            keys.subList(Math.max(end, 0), keys.size()).clear();
        }
    }

    /** The create request: the first key, a range end only when there are exactly two. */
    WatchCreateRequest request(List<String> keys) {
        if (keys.isEmpty()) {
            throw CliException.badArgs("bad number of arguments");
        }
        if (prefix && keys.size() == 2) {
            throw CliException.badArgs("`range_end` and `--prefix` are mutually exclusive");
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
     * Reads {@code watch ...} lines and starts each watch at once while earlier ones keep printing
     * (each with the command its line gave after {@code --}); like etcdctl, the end of input ends
     * the command with an error, and so does a line etcdctl cannot parse or a command that fails.
     */
    private void runInteractive(String envKey, String envRange) {
        ctx.checkFormat();
        BlockingQueue<Object> queue = new LinkedBlockingQueue<>();
        StreamObserver<WatchRequest> stream = open(queue);
        // each line's command, in the order the watches were asked for; the server creates them in that order
        BlockingQueue<List<String>> pending = new LinkedBlockingQueue<>();
        Map<Long, List<String>> commands = new ConcurrentHashMap<>();
        CompletableFuture<RuntimeException> ended = new CompletableFuture<>();
        Thread printer = new Thread(() -> {
            try {
                pump(queue, Integer.MAX_VALUE, commands::get, id -> {
                    List<String> exec = pending.poll();
                    if (exec != null && !exec.isEmpty()) {
                        commands.put(id, exec);
                    }
                });
            } catch (RuntimeException e) {
                ended.complete(e);
            }
        }, "watch-printer");
        Thread input = new Thread(() -> {
            try {
                while (true) {
                    String line;
                    try {
                        line = ctx.stdinReader().readLine();
                    } catch (IOException e) {
                        throw new CliException(ExitCodes.INVALID_INPUT, "Error reading watch request line: "
                                + e.getMessage());
                    }
                    if (line == null) {
                        throw new CliException(ExitCodes.INVALID_INPUT, "Error reading watch request line: EOF");
                    }
                    List<String> words = TxnParser.split(line);
                    if (words.isEmpty()) {
                        ctx.err().println("Invalid command: " + line + " (watch and progress supported)");
                        continue;
                    }
                    if (words.get(0).equals("progress")) {
                        // answered with the store's revision, printed once per open watch (none: nothing)
                        stream.onNext(WatchRequest.newBuilder()
                                .setProgressRequest(WatchProgressRequest.getDefaultInstance()).build());
                        continue;
                    }
                    List<String> exec = new ArrayList<>();
                    WatchCreateRequest create = parseLine(line, envKey, envRange, exec);
                    if (create != null) {
                        pending.add(exec);
                        stream.onNext(WatchRequest.newBuilder().setCreateRequest(create).build());
                    }
                }
            } catch (RuntimeException e) {
                ended.complete(e);
            }
        }, "watch-input");
        printer.setDaemon(true);
        input.setDaemon(true);
        printer.start();
        input.start();
        try (AutoCloseable stop = Interruption.whenStopped(() -> {
            cancel(stream, queue);
            ended.complete(new CliException(ExitCodes.INTERRUPTED, "watch stopped"));
        })) {
            throw ended.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception closing) {
            throw new IllegalStateException(closing);
        } finally {
            printer.interrupt();
            input.interrupt();
            stream.onCompleted();
        }
    }

    /**
     * One interactive line: a create request (and its command in {@code exec}), or null after
     * reporting why the line was skipped; what etcdctl treats as fatal is thrown.
     */
    private WatchCreateRequest parseLine(String line, String envKey, String envRange, List<String> exec) {
        List<String> words = TxnParser.split(line);
        if (!words.get(0).equals("watch")) {
            ctx.err().println("Invalid command " + line + " (only support watch)");
            return null;
        }
        if (words.size() < 2 && envKey.isEmpty()) {
            ctx.err().println("Invalid command " + line + " (command type or key is not provided)");
            return null;
        }
        List<String> watchArgs = words.subList(1, words.size());
        int execIdx = watchArgs.indexOf("--");
        if (execIdx >= 0 && execIdx == watchArgs.size() - 1) {
            throw CliException.badArgs(SEPARATOR_ERROR);
        }
        WatchCommand w = new WatchCommand();
        try {
            new CommandLine(w).parseArgs(watchArgs.toArray(new String[0]));
        } catch (CommandLine.ParameterException e) {
            throw CliException.badArgs(PflagErrors.describe(e));
        }
        List<String> positional = orEmpty(w.args);
        if (execIdx < 0 && positional.isEmpty() && envKey.isEmpty()) {
            throw CliException.badArgs(NUMBER_ERROR);
        }
        if (execIdx < 0 && !positional.isEmpty() && !envKey.isEmpty()) {
            throw CliException.badArgs(CONFLICT_ERROR);
        }
        List<String> keys = new ArrayList<>();
        withCommand(watchArgs, positional, envKey, envRange, keys, exec);
        try {
            return w.request(keys);
        } catch (CliException e) {
            ctx.err().println("Invalid command " + line + " (" + e.getMessage() + ")");
            return null;
        }
    }

    /** Cancels the stream (the member sees it end as Canceled) and ends the printing loop. */
    private static void cancel(StreamObserver<WatchRequest> stream, BlockingQueue<Object> queue) {
        if (stream instanceof ClientCallStreamObserver<WatchRequest> call) {
            call.cancel("etcdctl stopped", null);
        }
        queue.add(END);
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

    private void watch(WatchCreateRequest create, List<String> exec) {
        BlockingQueue<Object> queue = new LinkedBlockingQueue<>();
        StreamObserver<WatchRequest> stream = open(queue);
        stream.onNext(WatchRequest.newBuilder().setCreateRequest(create).build());
        try (AutoCloseable stop = Interruption.whenStopped(() -> cancel(stream, queue))) {
            pump(queue, 1, id -> exec, id -> { });
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception closing) {
            throw new IllegalStateException(closing);
        } finally {
            stream.onCompleted();
        }
        throw new CliException(ExitCodes.INTERRUPTED, "watch is canceled by the server");
    }

    /**
     * Prints responses until {@code open} watches were canceled, the stream ended, or interruption,
     * running each watch's command (if any) per event after printing the response.
     */
    private void pump(BlockingQueue<Object> queue, int open, LongFunction<List<String>> commandOf,
            LongConsumer created) {
        Printer printer = ctx.printer();
        int active = 0;
        try {
            while (open > 0) {
                Object next = queue.take();
                if (next instanceof Throwable t) {
                    throw CliException.error(EtcdClientException.from(Status.fromThrowable(t)).getMessage());
                }
                if (next == END) {
                    return;
                }
                WatchResponse r = (WatchResponse) next;
                if (r.getCreated()) {
                    created.accept(r.getWatchId());
                    active += r.getCanceled() ? 0 : 1;
                }
                if (r.getCreated() && r.getEventsCount() == 0 && !r.getCanceled()) {
                    continue;
                }
                if (r.getCanceled()) {
                    ctx.err().println("watch was canceled (" + cancelReason(r) + ")");
                    active -= r.getCreated() ? 0 : 1;
                    open--;
                    continue;
                }
                if (r.getEventsCount() == 0) {
                    // a progress request's answer (watch ID -1) reaches every open watch, as the Go client
                    // broadcasts it; a watch's own progress notification only that watch
                    int times = r.getWatchId() == -1 ? active : 1;
                    for (int i = 0; i < times && "simple".equals(ctx.options().writeOut()); i++) {
                        ctx.out().println("progress notify: " + r.getHeader().getRevision());
                    }
                    continue;
                }
                printer.watch(r);
                List<String> exec = commandOf.apply(r.getWatchId());
                if (exec != null && !exec.isEmpty()) {
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

    /**
     * Runs the command once per event with etcdctl's ETCD_WATCH_* variables (the response's header
     * revision, and Go's %q of the event type, key and value); a command that fails or cannot start
     * ends etcdctl with {@code command [...] error (...)} and exit code 1.
     */
    private void runExec(List<String> exec, WatchResponse r) {
        for (Event ev : r.getEventsList()) {
            Map<String, String> env = Map.of(
                    "ETCD_WATCH_REVISION", Long.toString(r.getHeader().getRevision()),
                    "ETCD_WATCH_EVENT_TYPE", "\"" + (ev.getType() == Event.EventType.DELETE ? "DELETE" : "PUT") + "\"",
                    "ETCD_WATCH_KEY", GoQuote.quote(ev.getKv().getKey().toByteArray()),
                    "ETCD_WATCH_VALUE", GoQuote.quote(ev.getKv().getValue().toByteArray()));
            String failure;
            try {
                int code = ChildProcess.run(ctx, exec, env);
                failure = code == 0 ? null : ChildProcess.exitText(code);
            } catch (IOException e) {
                failure = ChildProcess.startError(exec.get(0), e);
            }
            if (failure != null) {
                ctx.err().println("command " + ChildProcess.quoteList(exec) + " error (" + failure + ")");
                throw new CliException(ExitCodes.ERROR, null);
            }
        }
    }
}
