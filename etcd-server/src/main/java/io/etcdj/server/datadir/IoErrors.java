package io.etcdj.server.datadir;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

/** Turns Java I/O failures into the short "VERB PATH: reason" texts Go tools print. */
final class IoErrors {
    private IoErrors() {
    }

    static DataDirException describe(String verb, Path path, IOException e) {
        String reason;
        if (e instanceof NoSuchFileException) {
            reason = "no such file or directory";
        } else if (e instanceof AccessDeniedException) {
            reason = "permission denied";
        } else if (e instanceof NotDirectoryException) {
            reason = "not a directory";
        } else if (e instanceof FileAlreadyExistsException) {
            reason = "file exists";
        } else {
            reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        }
        return new DataDirException(verb + " " + path + ": " + reason, e);
    }
}
