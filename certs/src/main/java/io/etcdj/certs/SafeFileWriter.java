package io.etcdj.certs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Writes a file through a temporary sibling created with its final permissions, then renames it
 * over the target. A key therefore never exists, even for a moment, with wider permissions.
 */
final class SafeFileWriter {
    static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
    static final Set<PosixFilePermission> PUBLIC = PosixFilePermissions.fromString("rw-r--r--");

    private SafeFileWriter() {
    }

    static void write(Path file, String text, Set<PosixFilePermission> permissions) {
        Path target = file.toAbsolutePath();
        Path directory = target.getParent();
        Path temporary = null;
        try {
            Files.createDirectories(directory);
            boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
            FileAttribute<?>[] attributes = posix
                    ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(permissions)}
                    : new FileAttribute<?>[0];
            temporary = Files.createTempFile(directory, "." + target.getFileName(), ".tmp", attributes);
            Files.writeString(temporary, text, StandardCharsets.US_ASCII);
            if (posix) {
                // The umask may have narrowed the creation mode; state the intended one explicitly.
                Files.setPosixFilePermissions(temporary, permissions);
            }
            try {
                Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
            }
            temporary = null;
        } catch (IOException e) {
            throw TlsMaterialException.withText(file, "write " + file + ": " + PemFiles.reason(e));
        } finally {
            if (temporary != null) {
                try {
                    Files.deleteIfExists(temporary);
                } catch (IOException ignored) {
                    // The write already failed and is being reported; a stray temporary file is secondary.
                }
            }
        }
    }
}
