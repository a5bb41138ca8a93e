package io.etcdj.ctl.command;

import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.PutResponse;
import io.etcdj.cli.CliException;
import io.etcdj.ctl.cli.CtlCommand;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code put key [value]}: value from the second argument or standard input. */
@Command(name = "put", description = "Puts the given key into the store",
        customSynopsis = "etcdctl put [options] <key> <value> (<value> can also be given from stdin) [flags]",
        header = {
            "Puts the given key into the store.",
            "",
            "When <value> begins with '-', <value> is interpreted as a flag.",
            "Insert '--' for workaround:",
            "",
            "$ put <key> -- <value>",
            "$ put -- <key> <value>",
            "",
            "If <value> isn't given as a command line argument and '--ignore-value' is not specified,",
            "this command tries to read the value from standard input.",
            "",
            "If <lease> isn't given as a command line argument and '--ignore-lease' is not specified,",
            "this command tries to read the value from standard input.",
            "",
            "For example,",
            "$ cat file | put <key>",
            "will store the content of the file to <key>."})
public final class PutCommand extends CtlCommand {

    @Option(names = "--lease", defaultValue = "0", description = "lease ID (in hexadecimal) to attach to the key")
    String lease;

    @Option(names = "--prev-kv", arity = "0..1", description = "return the previous key-value pair before modification")
    boolean prevKv;

    @Option(names = "--ignore-value", arity = "0..1", description = "updates the key using its current value")
    boolean ignoreValue;

    @Option(names = "--ignore-lease", arity = "0..1", description = "updates the key using its current lease")
    boolean ignoreLease;

    @Parameters(arity = "0..*")
    List<String> args;

    @Override
    protected void run() {
        List<String> a = orEmpty(args);
        if (a.isEmpty()) {
            throw CliException.badArgs("put command needs 1 argument and input from stdin or 2 arguments");
        }
        String value = null;
        if (ignoreValue) {
            if (a.size() > 1) {
                throw CliException.badArgs("put command needs only 1 argument when 'ignore-value' is set");
            }
        } else if (a.size() > 1) {
            value = a.get(1);
        } else {
            value = readStdin();
            if (value.isEmpty()) {
                throw CliException.badArgs("put command needs 1 argument and input from stdin or 2 arguments");
            }
        }
        ctx.checkFormat();
        PutRequest req = request(a.get(0), value);
        PutResponse resp = ctx.client().kv(s -> s.put(req));
        ctx.printer().put(resp);
    }

    /** The request for a key and value (null with --ignore-value); also used by txn. */
    PutRequest request(String key, String value) {
        long leaseId = Args.leaseFlag(lease);
        PutRequest.Builder b = PutRequest.newBuilder().setKey(Args.bytes(key))
                .setLease(leaseId).setPrevKv(prevKv).setIgnoreValue(ignoreValue).setIgnoreLease(ignoreLease);
        if (value != null) {
            b.setValue(Args.bytes(value));
        }
        return b.build();
    }

    private String readStdin() {
        try {
            return new String(ctx.in().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw CliException.badArgs("put command needs 1 argument and input from stdin or 2 arguments");
        }
    }
}
