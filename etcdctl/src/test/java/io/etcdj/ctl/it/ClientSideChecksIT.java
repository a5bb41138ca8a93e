package io.etcdj.ctl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.etcdj.ctl.RootCommand;
import io.etcdj.ctl.cli.EtcdctlApp;
import io.etcdj.harness.Command;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What etcdctl decides on the client side, in order against twin etcds (the real etcdctl on one,
 * ours on the other): "user add :pw" refused before any request (exit 128), the argument taken
 * whole as the name with --new-user-password, and a --user that still works after "auth disable"
 * (etcd's Go client goes on when the server answers "authentication is not enabled").
 */
@ExtendWith(TwinEtcdExtension.class)
class ClientSideChecksIT {

    private static final List<List<String>> LINES = List.of(
            List.of("user", "add", ":pw", "--interactive=false"),
            List.of("user", "add", ":", "--interactive=false"),
            List.of("user", "add", "a:b", "--new-user-password=pw", "--interactive=false"),
            List.of("user", "get", "a:b"),
            List.of("user", "add", "nopw:x", "--no-password"),
            List.of("user", "get", "nopw:x"),
            List.of("user", "add", "root:rootpw", "--interactive=false"),
            List.of("user", "grant-role", "root", "root"),
            List.of("auth", "enable"),
            List.of("--user", "root:rootpw", "put", "k", "v"),
            List.of("--user", "root:rootpw", "auth", "disable"),
            // authentication is off now: the credentials are no longer checked
            List.of("--user", "root:rootpw", "put", "k", "v2"),
            List.of("--user", "nobody:x", "get", "k"),
            List.of("--user", "root", "--password", "rootpw", "get", "k"),
            // peer URLs checked by the client before member add/update send them (types.NewURLs)
            List.of("member", "add", "n1", "--peer-urls=x"),
            List.of("member", "add", "n1", "--peer-urls=http://h"),
            List.of("member", "add", "n1", "--peer-urls=http://127.0.0.1:2380/p"),
            List.of("member", "add", "n1", "--peer-urls=http://127.0.0.1:2380,ftp://h:1"),
            List.of("member", "add", "n1", "--peer-urls=http://[::1]"),
            List.of("member", "update", "1234", "--peer-urls=h:2380"));

    @TestFactory
    Stream<DynamicTest> decidedAsRealEtcdctl(TwinEtcdExtension.Twins twins) {
        Differ differ = new Differ(twins);
        return LINES.stream().map(line -> DynamicTest.dynamicTest(String.join(" ", line), () -> {
            String[] args = line.toArray(new String[0]);
            Differ.Result expected = differ.reference("", args);
            Differ.Result actual = differ.ours("", args);
            assertEquals(Differ.normalise(expected, twins.reference()).toString(),
                    Differ.normalise(actual, twins.ours()).toString());
        }));
    }

    /** With no server to reach, the failures are worded as etcdctl words them ("failed to grant lease (...)"). */
    @Test
    void unreachableEndpointFailuresWordedAsEtcdctl() throws Exception {
        for (List<String> line : List.of(List.of("lease", "grant", "10"), List.of("lease", "revoke", "1234"))) {
            List<String> args = new ArrayList<>(List.of("--endpoints=127.0.0.1:1", "--dial-timeout=1s",
                    "--command-timeout=1s"));
            args.addAll(line);
            List<String> cmd = new ArrayList<>(List.of(RealEtcd.ETCDCTL.toString()));
            cmd.addAll(args);
            Command.Result real = RealEtcd.realEtcdctl(cmd).run();
            String realErr = real.stderr();
            int realCode = real.exitCode();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int code = new EtcdctlApp(RootCommand::tree).run(args.toArray(new String[0]),
                    new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true),
                    new ByteArrayInputStream(new byte[0]), Map.of());
            assertEquals(realCode + " " + lastLine(realErr), code + " " + lastLine(err.toString()), String.join(" ", line));
        }
    }

    private static String lastLine(String s) {
        String[] lines = s.strip().split("\n");
        return lines[lines.length - 1];
    }
}
