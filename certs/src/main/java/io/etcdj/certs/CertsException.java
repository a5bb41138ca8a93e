package io.etcdj.certs;

/**
 * Base of every error this module reports. The message is complete and fits on one line (it names
 * the file and the problem), so a command line prints it as is instead of a stack trace.
 */
public class CertsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CertsException(String message) {
        super(message);
    }

    public CertsException(String message, Throwable cause) {
        super(message, cause);
    }
}
