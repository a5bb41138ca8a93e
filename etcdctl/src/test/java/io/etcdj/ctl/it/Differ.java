package io.etcdj.ctl.it;

import io.etcdj.ctl.RootCommand;
import io.etcdj.ctl.cli.EtcdctlApp;
import io.etcdj.harness.Command;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/** Runs the real etcdctl and ours with the same arguments and normalises what must differ. */
final class Differ {

    /** What one run printed and returned. */
    record Result(String out, String err, int code, byte[] rawOut) {
        Result(String out, String err, int code) {
            this(out, err, code, out.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public String toString() {
            return "exit " + code + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    private final TwinEtcdExtension.Twins twins;

    /**
     * With {@code -Detcdj.differ.viaLauncher=true} ours runs as {@code bin/etcdctl} processes (with
     * {@code -Detcdj.noDaemon=} too, through the warm path) instead of in-process.
     */
    private static final boolean VIA_LAUNCHER = Boolean.getBoolean("etcdj.differ.viaLauncher");

    Differ(TwinEtcdExtension.Twins twins) {
        this.twins = twins;
    }

    Result reference(String stdin, String... args) throws IOException, InterruptedException {
        return reference(stdin, false, Map.of(), args);
    }

    /** With {@code inputStaysOpen} the command's stdin is closed only after it ended by itself. */
    Result reference(String stdin, boolean inputStaysOpen, Map<String, String> vars, String... args)
            throws IOException, InterruptedException {
        return collect(RealEtcd.realEtcdctl(twins.reference().etcdctlCommand(args)).env(vars), stdin, inputStaysOpen);
    }

    private static Result collect(Command c, String stdin, boolean inputStaysOpen)
            throws IOException, InterruptedException {
        c.stdin(stdin);
        if (inputStaysOpen) {
            c.stdinStaysOpen();
        }
        Command.Result r = c.run();
        return new Result(r.stdout(), r.stderr(), r.exitCode(), r.stdoutBytes());
    }

    Result ours(String stdin, String... args) {
        return ours(stdin, false, Map.of(), args);
    }

    /** With {@code inputStaysOpen} the command's stdin ends only after it ended by itself. */
    Result ours(String stdin, boolean inputStaysOpen, Map<String, String> vars, String... args) {
        List<String> all = new ArrayList<>();
        all.add("--endpoints=" + twins.ours().endpoint());
        all.addAll(List.of(args));
        if (VIA_LAUNCHER) {
            try {
                return launcher(stdin, inputStaysOpen, vars, all);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Map<String, String> env = new HashMap<>(vars);
        OpenInput in = new OpenInput(stdin.getBytes(StandardCharsets.UTF_8), inputStaysOpen);
        int code;
        try {
            code = new EtcdctlApp(RootCommand::tree).run(all.toArray(new String[0]),
                    new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                    in, env);
        } finally {
            in.close();
        }
        return new Result(out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), code,
                out.toByteArray());
    }

    /** Standard input that, once its bytes are read, either ends or blocks until closed (the pipe stays open). */
    private static final class OpenInput extends InputStream {
        private final ByteArrayInputStream bytes;
        private final boolean staysOpen;
        private final CountDownLatch closed = new CountDownLatch(1);

        OpenInput(byte[] b, boolean staysOpen) {
            this.bytes = new ByteArrayInputStream(b);
            this.staysOpen = staysOpen;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = bytes.read(b, off, len);
            if (n >= 0 || !staysOpen) {
                return n;
            }
            try {
                closed.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return -1;
        }

        @Override
        public void close() {
            closed.countDown();
        }
    }

    private static Result launcher(String stdin, boolean inputStaysOpen, Map<String, String> vars, List<String> args)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of("..", "bin", "etcdctl").toAbsolutePath().normalize().toString());
        cmd.addAll(args);
        return collect(Command.of(cmd).withoutEnv("ETCDCTL").env(vars), stdin, inputStaysOpen);
    }

    /**
     * Replaces what legitimately differs between the twins: ports, cluster/member/lease IDs (decimal
     * and hex), timestamps and client UUIDs in warning lines, and measured durations.
     */
    static Result normalise(Result r, RealEtcd server) {
        return new Result(norm(r.out(), server), norm(r.err(), server), r.code(), r.rawOut());
    }

    private static String norm(String s, RealEtcd server) {
        return s.replace(":" + server.clientPort, ":<CPORT>").replace(":" + server.peerPort, ":<PPORT>")
                .replaceAll("\"ts\":\"[^\"]+\"", "\"ts\":\"<TS>\"")
                .replaceAll("\"ts\":[0-9.]+", "\"ts\":<TS>")
                .replaceAll("\"took\":[0-9.e-]+", "\"took\":<TOOK>")
                .replaceAll("\"size\":\"[^\"]+\"", "\"size\":\"<SIZE>\"")
                // A lease's remaining TTL depends on when in the second each side asked.
                .replaceAll("remaining\\([0-9]+s\\)", "remaining(<N>s)")
                .replaceAll("\"TTL\" : [0-9]+\n\"GrantedTTL\"", "\"TTL\" : <N>\n\"GrantedTTL\"")
                .replaceAll("\"ttl\":[0-9]+,\"granted-ttl\"", "\"ttl\":<N>,\"granted-ttl\"")
                .replaceAll("client-[0-9a-f-]{36}", "client-<UUID>")
                // Decimal IDs first: one whose member prefix is small has 15 or 16 digits, which
                // the hex pattern would take (about one run in 200, by the member ID's low bits).
                .replaceAll("\\b[0-9]{15,20}\\b", "<ID>")
                .replaceAll("\\b[0-9a-f]{12,16}\\b", "<HEXID>")
                // Table column widths follow the (random) member ID lengths.
                .replaceAll("-{3,}", "---").replaceAll(" {2,}\\|", " |").replaceAll("\\| {2,}", "| ")
                .replaceAll("took = [0-9.]+[µnm]?s", "took = <DUR>")
                // KV hashes cover lease IDs, which differ between the twins.
                .replaceAll("\"hash\":[0-9]+", "\"hash\":<HASH>")
                .replaceAll("(<CPORT>,? \\|? *)[0-9]{5,10}( \\|)?", "$1<HASH>$2")
                .replaceAll("\"took\":\"[0-9.]+[µnm]?s\"", "\"took\":\"<DUR>\"");
    }
}
