package io.etcdj.ctl.cli;

import io.etcdj.cli.CliException;
import io.etcdj.cli.ExitCodes;
import java.io.Console;
import java.io.IOException;

/** The --user / --password pair, with etcdctl's rules for splitting and prompting. */
record Credentials(String user, String password) {

    static Credentials resolve(GlobalOptions o, CtlContext ctx) {
        String user = o.user();
        if (user == null || user.isEmpty()) {
            return null;
        }
        String password = o.password();
        if (password != null && !password.isEmpty()) {
            if (user.contains(":")) {
                throw CliException.badArgs("--user option shouldn't include password when --password is specified");
            }
            return new Credentials(user, password);
        }
        int colon = user.indexOf(':');
        if (colon >= 0) {
            return new Credentials(user.substring(0, colon), user.substring(colon + 1));
        }
        return new Credentials(user, prompt(ctx));
    }

    private static String prompt(CtlContext ctx) {
        Console console = System.console();
        if (console != null) {
            char[] pw = console.readPassword("Password: ");
            return pw == null ? "" : new String(pw);
        }
        ctx.err().print("Password: ");
        try {
            String line = ctx.stdinReader().readLine();
            return line == null ? "" : line;
        } catch (IOException e) {
            throw new CliException(ExitCodes.BAD_ARGS, "failed to read password: " + e.getMessage(), e);
        }
    }
}
