package io.etcdj.certs.cli;

import io.etcdj.certs.KeyFormat;
import io.etcdj.certs.KeySpec;
import java.util.Locale;
import picocli.CommandLine.Option;

/** Key flags shared by the commands that make keys. */
final class KeyOptions {
    @Option(names = "--key-algo", paramLabel = "ecdsa|rsa", defaultValue = "ecdsa",
            description = "Key algorithm (default: ${DEFAULT-VALUE}).")
    String algorithm;

    @Option(names = "--key-size", paramLabel = "BITS",
            description = "Key size: 256, 384 or 521 for ecdsa (default 256); 2048 or 4096 for rsa (default 2048).")
    int size;

    @Option(names = "--key-format", paramLabel = "pkcs8|traditional", defaultValue = "pkcs8",
            description = "Key file format: pkcs8 (BEGIN PRIVATE KEY) or traditional (BEGIN EC/RSA PRIVATE KEY). "
                    + "etcd reads both (default: ${DEFAULT-VALUE}).")
    String format;

    KeySpec keySpec() {
        return KeySpec.of(algorithm, size);
    }

    KeyFormat keyFormat() {
        return switch (format.toLowerCase(Locale.ROOT)) {
            case "pkcs8" -> KeyFormat.PKCS8;
            case "traditional", "pkcs1", "sec1" -> KeyFormat.TRADITIONAL;
            default -> throw new IllegalArgumentException("invalid --key-format \"" + format + "\" (use pkcs8 or traditional)");
        };
    }
}
