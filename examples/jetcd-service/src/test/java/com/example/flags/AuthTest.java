package com.example.flags;

import static com.example.flags.Bytes.of;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcd.jetcd.Auth;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.auth.Permission;
import io.etcdj.embedded.EtcdExtension;
import java.net.URI;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Users, roles and permissions as jetcd's AuthClientTest sets them up; a cluster of its own per test. */
class AuthTest {
    @RegisterExtension
    final EtcdExtension etcd = EtcdExtension.builder().build();

    @Test
    void aReadOnlyUserReadsItsPrefixAndCannotWrite() throws Exception {
        URI[] endpoints = etcd.clientEndpoints().toArray(URI[]::new);
        try (Client admin = Client.builder().endpoints(endpoints).build()) {
            admin.getKVClient().put(of("config/db"), of("postgres")).get(10, TimeUnit.SECONDS);
            Auth auth = admin.getAuthClient();
            auth.userAdd(of("root"), of("rootpw")).get();
            auth.userGrantRole(of("root"), of("root")).get();
            auth.userAdd(of("reader"), of("readerpw")).get();
            auth.roleAdd(of("config-reader")).get();
            auth.roleGrantPermission(of("config-reader"), of("config/"), of("config0"), Permission.Type.READ).get();
            auth.userGrantRole(of("reader"), of("config-reader")).get();
            auth.authEnable().get();
        }
        try (Client reader = Client.builder().endpoints(endpoints).user(of("reader")).password(of("readerpw")).build()) {
            assertEquals(1, reader.getKVClient().get(of("config/db")).get(10, TimeUnit.SECONDS).getCount());
            ExecutionException denied = assertThrows(ExecutionException.class,
                    () -> reader.getKVClient().put(of("config/db"), of("mysql")).get(10, TimeUnit.SECONDS));
            assertTrue(denied.getCause().getMessage().contains("permission denied"), denied.getCause().getMessage());
        }
        try (Client nobody = Client.builder().endpoints(endpoints).build()) {
            ExecutionException refused = assertThrows(ExecutionException.class,
                    () -> nobody.getKVClient().get(of("config/db")).get(10, TimeUnit.SECONDS));
            assertTrue(refused.getCause().getMessage().contains("user name is empty"), refused.getCause().getMessage());
        }
    }
}
