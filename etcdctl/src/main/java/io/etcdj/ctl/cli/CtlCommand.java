package io.etcdj.ctl.cli;

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

    /** Runs the command; failures are thrown as {@link CtlException} or client exceptions. */
    protected abstract void run();

    /** The one positional argument, or etcdctl's usage error {@code errorText} when there is not exactly one. */
    protected static String onlyArg(List<String> args, String errorText) {
        List<String> a = orEmpty(args);
        if (a.size() != 1) {
            throw CtlException.badArgs(errorText);
        }
        return a.get(0);
    }

    protected static List<String> orEmpty(List<String> args) {
        return args == null ? List.of() : args;
    }
}
