package io.etcdj.raft;

/** Base of every error the Raft core reports; unchecked so the single driver loop decides where to map it. */
public class RaftException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RaftException(String message) {
        super(message);
    }
}
