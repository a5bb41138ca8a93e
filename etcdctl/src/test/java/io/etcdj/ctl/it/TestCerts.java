package io.etcdj.ctl.it;

import io.etcdj.harness.Command;
import io.etcdj.harness.Prerequisites;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A throw-away CA with a server certificate for 127.0.0.1 and a client certificate, made with the
 * openssl command line (EC P-256, PKCS#8 keys that both Go and Netty read).
 */
record TestCerts(Path dir, Path caCert, Path serverCert, Path serverKey, Path clientCert, Path clientKey) {

    static TestCerts create(Path dir) throws IOException, InterruptedException {
        Prerequisites.requireExecutable(Path.of("/usr/bin/openssl"), "openssl");
        TestCerts c = new TestCerts(dir, dir.resolve("ca.pem"), dir.resolve("server.pem"), dir.resolve("server-key.pem"),
                dir.resolve("client.pem"), dir.resolve("client-key.pem"));
        Path caKey = dir.resolve("ca-key.pem");
        openssl(dir, "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", caKey.toString());
        openssl(dir, "req", "-x509", "-new", "-key", caKey.toString(), "-subj", "/CN=etcdctl-it-ca", "-days", "2",
                "-out", c.caCert.toString());
        issue(dir, c, "server", c.serverKey, c.serverCert, "subjectAltName=IP:127.0.0.1,DNS:localhost\n"
                + "extendedKeyUsage=serverAuth,clientAuth\n");
        issue(dir, c, "client", c.clientKey, c.clientCert, "extendedKeyUsage=clientAuth\n");
        return c;
    }

    private static void issue(Path dir, TestCerts c, String cn, Path key, Path cert, String ext)
            throws IOException, InterruptedException {
        Path csr = dir.resolve(cn + ".csr");
        Path extFile = dir.resolve(cn + ".ext");
        Files.writeString(extFile, ext);
        openssl(dir, "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key.toString());
        openssl(dir, "req", "-new", "-key", key.toString(), "-subj", "/CN=" + cn, "-out", csr.toString());
        openssl(dir, "x509", "-req", "-in", csr.toString(), "-CA", c.caCert.toString(), "-CAkey",
                dir.resolve("ca-key.pem").toString(), "-CAcreateserial", "-days", "2", "-extfile", extFile.toString(),
                "-out", cert.toString());
    }

    private static void openssl(Path dir, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("/usr/bin/openssl"));
        cmd.addAll(List.of(args));
        Command.Result r = Command.of(cmd).dir(dir).mergeStderr().run();
        if (r.exitCode() != 0) {
            throw new IOException("openssl " + String.join(" ", args) + " failed: " + r.stdout());
        }
    }
}
