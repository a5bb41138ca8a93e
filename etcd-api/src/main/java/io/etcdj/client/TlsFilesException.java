package io.etcdj.client;

/** The TLS files given to the client cannot be used; the message is the Go client's text. */
public final class TlsFilesException extends RuntimeException {
    public TlsFilesException(String message, Throwable cause) {
        super(message, cause);
    }
}
