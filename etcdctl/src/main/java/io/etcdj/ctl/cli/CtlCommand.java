package io.etcdj.ctl.cli;

import io.etcdj.cli.CliException;
import io.etcdj.cli.ExitCodes;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * Base of every leaf command: the context is injected before {@link #call()}, positional arguments
 * are collected raw so each command can report wrong arity in etcdctl's words.
 */
public abstract class CtlCommand implements Callable<Integer> {

    protected CtlContext ctx;

    public void context(CtlContext value) {
        this.ctx = value;
    }

    @Override
    public final Integer call() {
        run();
        return ExitCodes.SUCCESS;
    }

    /**
     * True when this invocation must run in a process of its own rather than in the resident warm
     * server: it starts a child that must inherit the caller's terminal, process group and stdio, or
     * it talks to the terminal itself. {@code terminal} says whether the caller's stdin and stdout are
     * a terminal (what {@link System#console()} needs). Called after parsing, before {@link #call()}.
     */
    public boolean needsOwnProcess(boolean terminal) {
        return false;
    }

    /**
     * True for the commands that answer Ctrl-C themselves (etcdctl's lock and elect: they cancel
     * their wait, or unlock or resign and exit 0); every other command dies by it.
     */
    public boolean takesInterrupt() {
        return false;
    }

    /** Runs the command; failures are thrown as {@link CliException} or client exceptions. */
    protected abstract void run();

    /** The one positional argument, or etcdctl's usage error {@code errorText} when there is not exactly one. */
    protected static String onlyArg(List<String> args, String errorText) {
        List<String> a = orEmpty(args);
        if (a.size() != 1) {
            throw CliException.badArgs(errorText);
        }
        return a.get(0);
    }

    protected static List<String> orEmpty(List<String> args) {
        return args == null ? List.of() : args;
    }
}
