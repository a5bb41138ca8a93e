package com.example.flags;

import static com.example.flags.Bytes.of;
import static com.example.flags.Bytes.text;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.etcd.jetcd.Client;
import io.etcd.jetcd.test.EtcdClusterExtension;
import java.io.InputStream;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * TLS as a jetcd project tests it: the member serves the project's own certificate
 * (src/test/resources/ssl/cert/etcd0.pem, signed by its ca.pem) and the client checks it as etcd0.
 */
class TlsTest {
    @RegisterExtension
    static final EtcdClusterExtension cluster = EtcdClusterExtension.builder().withNodes(1).withSsl(true).build();

    @Test
    void aClientTrustingTheProjectsCaTalksToTheMember() throws Exception {
        try (InputStream ca = getClass().getResourceAsStream("/ssl/cert/ca.pem");
                Client client = Client.builder().endpoints(cluster.clientEndpoints().get(0)).authority("etcd0")
                        .sslContext(b -> b.trustManager(ca)).build()) {
            assertEquals("https", cluster.clientEndpoints().get(0).getScheme());
            client.getKVClient().put(of("tls/k"), of("v")).get(10, TimeUnit.SECONDS);
            assertEquals("v", text(client.getKVClient().get(of("tls/k")).get(10, TimeUnit.SECONDS).getKvs().get(0).getValue()));
        }
    }
}
