package io.etcdj.ctl.command;

import io.etcdj.api.etcdserverpb.TxnRequest;
import io.etcdj.api.etcdserverpb.TxnResponse;
import io.etcdj.cli.CliException;
import io.etcdj.cli.ExitCodes;
import io.etcdj.ctl.cli.CtlCommand;
import java.io.BufferedReader;
import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code txn [-i]}: reads compares, success requests and failure requests from standard input, each
 * section ended by an empty line.
 */
@Command(name = "txn", description = "Txn processes all the requests in one transaction",
        customSynopsis = "etcdctl txn [options] [flags]")
public final class TxnCommand extends CtlCommand {

    @Option(names = {"-i", "--interactive"}, arity = "0..1", description = "Input transaction in interactive mode")
    boolean interactive;

    @Parameters(arity = "0..*")
    List<String> args;

    @Override
    protected void run() {
        if (!orEmpty(args).isEmpty()) {
            throw CliException.badArgs("txn command does not accept argument");
        }
        BufferedReader in = ctx.stdinReader();
        TxnRequest.Builder txn = TxnRequest.newBuilder();
        prompt("compares:");
        section(in, line -> txn.addCompare(TxnParser.compare(line)));
        prompt("success requests (get, put, del):");
        section(in, line -> txn.addSuccess(TxnParser.request(line)));
        prompt("failure requests (get, put, del):");
        section(in, line -> txn.addFailure(TxnParser.request(line)));
        ctx.checkFormat();
        TxnRequest req = txn.build();
        TxnResponse resp = ctx.client().kv(s -> s.txn(req));
        ctx.printer().txn(resp);
    }

    private void prompt(String text) {
        if (interactive) {
            ctx.out().println(text);
        }
    }

    /**
     * Reads one section up to its empty line, handing each line over as it is read: as etcdctl does,
     * a malformed line is reported at once, before the rest is typed.
     */
    private static void section(BufferedReader in, Consumer<String> eachLine) {
        while (true) {
            String line;
            try {
                line = in.readLine();
            } catch (IOException e) {
                throw new CliException(ExitCodes.INVALID_INPUT, e.getMessage());
            }
            if (line == null) {
                throw new CliException(ExitCodes.INVALID_INPUT, "EOF");
            }
            if (line.trim().isEmpty()) {
                return;
            }
            eachLine.accept(line.trim());
        }
    }
}
