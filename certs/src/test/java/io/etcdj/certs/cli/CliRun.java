package io.etcdj.certs.cli;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;

/** One in-process run of etcd-certs: exit code and captured output. */
public record CliRun(int exitCode, String out, String err) {
    public static CliRun of(String... args) {
        return withStdin("", args);
    }

    public static CliRun withStdin(String stdin, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out), new PrintWriter(err),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
        return new CliRun(code, out.toString(), err.toString());
    }
}
