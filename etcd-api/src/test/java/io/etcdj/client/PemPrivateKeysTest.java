package io.etcdj.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.Command;
import io.etcdj.harness.Prerequisites;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Keys as openssl writes them by default, in every form etcd's users bring. */
class PemPrivateKeysTest {
    @TempDir
    Path dir;

    private Path openssl(String out, String... args) throws Exception {
        Path file = dir.resolve(out);
        List<String> cmd = new ArrayList<>(List.of("openssl"));
        cmd.addAll(List.of(args));
        cmd.addAll(List.of("-out", file.toString()));
        Prerequisites.requireCommand("openssl", "openssl");
        Command.Result r = Command.of(cmd).mergeStderr().timeout(Duration.ofSeconds(30)).run();
        assertEquals(0, r.exitCode(), r.stdout());
        return file;
    }

    private static byte[] der(byte[] pem) {
        String s = new String(pem, StandardCharsets.US_ASCII);
        return Base64.getMimeDecoder().decode(s.replaceAll("-----[A-Z ]+-----", "").trim());
    }

    private static PrivateKey load(byte[] pem, String algorithm) throws Exception {
        return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der(pem)));
    }

    @Test
    void rsaInPkcs1BecomesTheSameKeyInPkcs8() throws Exception {
        Path pkcs8 = openssl("rsa8.pem", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048");
        Path pkcs1 = openssl("rsa1.pem", "rsa", "-traditional", "-in", pkcs8.toString());
        assertTrue(Files.readString(pkcs1).contains("BEGIN RSA PRIVATE KEY"));
        var want = (RSAPrivateCrtKey) load(Files.readAllBytes(pkcs8), "RSA");
        var got = (RSAPrivateCrtKey) load(PemPrivateKeys.pkcs8Pem(pkcs1), "RSA");
        assertEquals(want.getModulus(), got.getModulus());
        assertEquals(want.getPrivateExponent(), got.getPrivateExponent());
    }

    @Test
    void ecInSec1AfterItsParametersBecomesTheSameKeyInPkcs8() throws Exception {
        Path sec1 = openssl("ec1.pem", "ecparam", "-name", "prime256v1", "-genkey");
        String text = Files.readString(sec1);
        assertTrue(text.contains("BEGIN EC PARAMETERS") && text.contains("BEGIN EC PRIVATE KEY"), text);
        Path pkcs8 = openssl("ec8.pem", "pkcs8", "-topk8", "-nocrypt", "-in", sec1.toString());
        var want = (ECPrivateKey) load(Files.readAllBytes(pkcs8), "EC");
        var got = (ECPrivateKey) load(PemPrivateKeys.pkcs8Pem(sec1), "EC");
        assertEquals(want.getS(), got.getS());
        assertEquals(want.getParams().getCurve(), got.getParams().getCurve());
    }

    @Test
    void pkcs8PassesThrough() throws Exception {
        Path pkcs8 = openssl("p8.pem", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384");
        assertArrayEquals(der(Files.readAllBytes(pkcs8)), der(PemPrivateKeys.pkcs8Pem(pkcs8)));
    }

    @Test
    void encryptedAndMissingKeysAreRefusedClearly() throws Exception {
        Path enc = openssl("enc.pem", "genpkey", "-algorithm", "RSA", "-aes256", "-pass", "pass:secret");
        IOException e = assertThrows(IOException.class, () -> PemPrivateKeys.pkcs8Pem(enc));
        assertTrue(e.getMessage().contains("is encrypted"), e.getMessage());
        Path none = dir.resolve("cert-only.pem");
        Files.writeString(none, "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n");
        assertTrue(assertThrows(IOException.class, () -> PemPrivateKeys.pkcs8Pem(none)).getMessage()
                .startsWith("no private key found in"));
    }
}
