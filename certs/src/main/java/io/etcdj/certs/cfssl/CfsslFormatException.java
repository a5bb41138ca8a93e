package io.etcdj.certs.cfssl;

import io.etcdj.certs.CertsException;
import java.nio.file.Path;

/** A cfssl JSON file is malformed or says something we cannot honour; names the file and why. */
public final class CfsslFormatException extends CertsException {
    private static final long serialVersionUID = 1L;

    public CfsslFormatException(Path file, String problem) {
        super(file + ": " + problem);
    }
}
