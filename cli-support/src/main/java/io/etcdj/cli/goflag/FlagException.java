package io.etcdj.cli.goflag;

/** A command line Go's flag package or pflag would refuse; the message is its text. */
public final class FlagException extends Exception {
    private static final long serialVersionUID = 1L;

    public FlagException(String message) {
        super(message);
    }
}
