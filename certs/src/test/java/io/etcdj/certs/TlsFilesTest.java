package io.etcdj.certs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JDK's own TLS stack accepts our material, with and without client authentication. */
class TlsFilesTest {
    @TempDir
    Path dir;

    @Test
    void mutualTlsHandshakeWorksAndNoClientCertificateFails() throws Exception {
        ClusterTlsLayout layout = ClusterCertificates.forMembers(
                List.of(new ClusterCertificates.Member("infra0", List.of("127.0.0.1")))).writeTo(dir);
        TlsFiles server = layout.server("infra0");
        TlsFiles client = layout.client();
        TlsFiles anonymous = new TlsFiles(client.certFile(), client.keyFile(), layout.caCertificate());
        try (SSLServerSocket listener = (SSLServerSocket) server.sslContext().getServerSocketFactory()
                .createServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            listener.setNeedClientAuth(true);
            CompletableFuture<String> served = CompletableFuture.supplyAsync(() -> serveOnce(listener));
            assertEquals("root", exchange(client, listener.getLocalPort()));
            assertEquals("root", served.get(10, TimeUnit.SECONDS));

            // Without key managers the client presents no certificate; the server must refuse.
            CompletableFuture<String> refused = CompletableFuture.supplyAsync(() -> serveOnce(listener));
            SSLContext noCert = SSLContext.getInstance("TLS");
            noCert.init(null, anonymous.trustManagerFactory().getTrustManagers(), null);
            assertThrows(IOException.class, () -> {
                try (SSLSocket socket = (SSLSocket) noCert.getSocketFactory().createSocket(InetAddress.getLoopbackAddress(),
                        listener.getLocalPort())) {
                    socket.startHandshake();
                    new DataInputStream(socket.getInputStream()).readUTF();
                }
            });
            assertEquals("refused", refused.get(10, TimeUnit.SECONDS));
        }
    }

    private static String exchange(TlsFiles client, int port) throws IOException {
        // Connecting by the IP literal makes the HTTPS identity check look for the 127.0.0.1 SAN.
        try (SSLSocket socket = (SSLSocket) client.sslContext().getSocketFactory().createSocket("127.0.0.1", port)) {
            SSLParameters parameters = socket.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            socket.setSSLParameters(parameters);
            new DataOutputStream(socket.getOutputStream()).writeUTF("hello");
            return new DataInputStream(socket.getInputStream()).readUTF();
        }
    }

    private static String serveOnce(SSLServerSocket listener) {
        try (SSLSocket socket = (SSLSocket) listener.accept()) {
            socket.startHandshake();
            String peer = ((X509Certificate) socket.getSession().getPeerCertificates()[0])
                    .getSubjectX500Principal().getName().replace("CN=", "");
            new DataInputStream(socket.getInputStream()).readUTF();
            new DataOutputStream(socket.getOutputStream()).writeUTF(peer);
            return peer;
        } catch (IOException e) {
            return "refused";
        }
    }
}
