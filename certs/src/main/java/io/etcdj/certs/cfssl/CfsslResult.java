package io.etcdj.certs.cfssl;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.etcdj.certs.IssuedCertificate;
import io.etcdj.certs.KeyFormat;
import io.etcdj.certs.PemFiles;
import java.nio.file.Path;
import java.util.List;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;

/**
 * What {@code cfssl gencert} produces: certificate, key and request. {@link #toJson()} is cfssl's
 * standard output (so a real {@code cfssljson} can consume it); {@link #writeBare} writes the three
 * files {@code cfssljson -bare NAME} would. Keys use cfssl's format (SEC 1 or PKCS#1).
 */
public record CfsslResult(IssuedCertificate issued, PKCS10CertificationRequest request) {

    public String certificatePem() {
        return issued.certificatePem();
    }

    public String keyPem() {
        return issued.privateKeyPem(KeyFormat.TRADITIONAL);
    }

    public String requestPem() {
        return PemFiles.certificateRequestPem(request);
    }

    public String toJson() {
        ObjectNode json = JsonFiles.MAPPER.createObjectNode();
        json.put("cert", certificatePem());
        json.put("csr", requestPem());
        json.put("key", keyPem());
        try {
            return JsonFiles.MAPPER.writeValueAsString(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes NAME.pem, NAME-key.pem (0600) and NAME.csr; NAME may include a directory. */
    public List<Path> writeBare(String name) {
        Path cert = Path.of(name + ".pem");
        Path key = Path.of(name + "-key.pem");
        Path csr = Path.of(name + ".csr");
        PemFiles.writePrivate(key, keyPem());
        PemFiles.writePublic(cert, certificatePem());
        PemFiles.writePublic(csr, requestPem());
        return List.of(cert, key, csr);
    }
}
