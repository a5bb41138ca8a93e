package io.etcd.jetcd.test;

import io.etcdj.embedded.EtcdCluster;
import io.etcdj.embedded.EtcdClusterException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * jetcd-test serves TLS with the certificates a project keeps on its test class path:
 * {@code ssl/cert/NAME.pem} and {@code ssl/cert/NAME-key.pem} for member NAME (etcd0, ...), signed
 * by the project's {@code ssl/cert/ca.pem}. Where they are all present they are used the same way
 * here, so a project's TLS tests keep their CA; otherwise the cluster makes certificates of its own.
 */
final class ProjectCertificates {
    private ProjectCertificates() {
    }

    static void apply(EtcdCluster.Builder builder, String prefix, int members) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        for (int i = 0; i < members; i++) {
            String name = prefix + i;
            if (loader.getResource("ssl/cert/" + name + ".pem") == null
                    || loader.getResource("ssl/cert/" + name + "-key.pem") == null) {
                return;
            }
        }
        try {
            Path dir = Files.createTempDirectory("jetcd-test-certs-");
            dir.toFile().deleteOnExit();
            for (int i = 0; i < members; i++) {
                String name = prefix + i;
                Path cert = copy(loader, "ssl/cert/" + name + ".pem", dir.resolve(name + ".pem"));
                Path key = copy(loader, "ssl/cert/" + name + "-key.pem", dir.resolve(name + "-key.pem"));
                builder.serverCertificate(name, cert, key);
            }
        } catch (IOException e) {
            throw new EtcdClusterException("cannot copy the project's certificates from ssl/cert/: " + e.getMessage(), e);
        }
    }

    private static Path copy(ClassLoader loader, String resource, Path target) throws IOException {
        try (InputStream in = loader.getResourceAsStream(resource)) {
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        }
        target.toFile().deleteOnExit();
        return target;
    }
}
