package io.etcdj.server.wal;

import java.io.IOException;

/** A WAL cannot be used as asked; the message is meant for the operator and starts with "wal: ". */
public class WalException extends IOException {
    private static final long serialVersionUID = 1L;

    public WalException(String message) {
        super(message);
    }

    public WalException(String message, Throwable cause) {
        super(message, cause);
    }
}
