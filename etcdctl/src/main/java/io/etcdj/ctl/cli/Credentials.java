package io.etcdj.ctl.cli;

import io.etcdj.cli.CliException;
import io.etcdj.cli.ExitCodes;
import java.io.Console;
import java.io.IOException;

/**
 * A user name and password pair given as etcdctl takes them (--user / --password, make-mirror's
 * --dest-user / --dest-password), with its rules for splitting "name:password" and prompting.
 */
public record Credentials(String user, String password) {

    static Credentials resolve(GlobalOptions o, CtlContext ctx) {
        String user = o.user();
        if (user != null && user.contains(":") && o.password() != null && !o.password().isEmpty()) {
            throw CliException.badArgs("--user option shouldn't include password when --password is specified");
        }
        return of(user, o.password(), "Password: ", ctx);
    }

    /**
     * The pair {@code user} (maybe "name:password") and {@code password} stand for: null without a
     * user; the password given, else the one after the colon, else one read at {@code prompt}.
     */
    public static Credentials of(String user, String password, String prompt, CtlContext ctx) {
        if (user == null || user.isEmpty()) {
            return null;
        }
        if (password != null && !password.isEmpty()) {
            return new Credentials(user, password);
        }
        int colon = user.indexOf(':');
        if (colon >= 0) {
            return new Credentials(user.substring(0, colon), user.substring(colon + 1));
        }
        return new Credentials(user, prompt(ctx, prompt));
    }

    private static String prompt(CtlContext ctx, String prompt) {
        Console console = System.console();
        if (console != null) {
            char[] pw = console.readPassword(prompt);
            return pw == null ? "" : new String(pw);
        }
        ctx.err().print(prompt);
        try {
            String line = ctx.stdinReader().readLine();
            return line == null ? "" : line;
        } catch (IOException e) {
            throw new CliException(ExitCodes.BAD_ARGS, "failed to read password: " + e.getMessage(), e);
        }
    }
}
