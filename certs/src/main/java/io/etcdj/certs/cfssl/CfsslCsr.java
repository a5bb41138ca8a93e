package io.etcdj.certs.cfssl;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdj.certs.CertificateRequest;
import io.etcdj.certs.KeySpec;
import io.etcdj.certs.SubjectName;
import io.etcdj.cli.GoDuration;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * cfssl's JSON certificate request:
 *
 * <pre>{@code
 * {"CN": "etcd", "hosts": ["localhost", "127.0.0.1"], "key": {"algo": "ecdsa", "size": 256},
 *  "names": [{"C": "US", "L": "San Francisco", "O": "etcd", "OU": "Test", "ST": "California"}],
 *  "ca": {"expiry": "876000h", "pathlen": 1}}
 * }</pre>
 *
 * Unknown fields are ignored, as cfssl does. {@code key} defaults to ECDSA P-256, cfssl's default.
 */
public record CfsslCsr(Path file, String commonName, List<String> hosts, KeySpec keySpec, List<SubjectName> names,
        Duration caExpiry, Integer caPathLength) {

    public CfsslCsr {
        hosts = List.copyOf(hosts);
        names = List.copyOf(names);
    }

    public static CfsslCsr read(Path file, InputStream stdin) {
        JsonNode root = JsonFiles.read(file, stdin);
        String commonName = JsonFiles.string(root, "CN", file);
        List<String> hosts = JsonFiles.strings(root, "hosts", file);
        KeySpec keySpec = KeySpec.DEFAULT;
        JsonNode key = JsonFiles.object(root, "key", file);
        if (key != null) {
            String algo = JsonFiles.string(key, "algo", file);
            JsonNode size = key.get("size");
            if (size != null && !size.isNull() && !size.canConvertToInt()) {
                throw new CfsslFormatException(file, "\"key.size\" must be a number");
            }
            try {
                keySpec = KeySpec.of(algo == null ? "ecdsa" : algo, size == null || size.isNull() ? 0 : size.asInt());
            } catch (IllegalArgumentException e) {
                throw new CfsslFormatException(file, e.getMessage());
            }
        }
        List<SubjectName> names = new ArrayList<>();
        JsonNode nameList = root.get("names");
        if (nameList != null && !nameList.isNull()) {
            if (!nameList.isArray()) {
                throw new CfsslFormatException(file, "\"names\" must be a list of objects");
            }
            for (JsonNode name : nameList) {
                if (!name.isObject()) {
                    throw new CfsslFormatException(file, "\"names\" must be a list of objects");
                }
                names.add(new SubjectName(JsonFiles.string(name, "C", file), JsonFiles.string(name, "ST", file),
                        JsonFiles.string(name, "L", file), JsonFiles.string(name, "O", file), JsonFiles.string(name, "OU", file)));
            }
        }
        Duration caExpiry = null;
        Integer caPathLength = null;
        JsonNode ca = JsonFiles.object(root, "ca", file);
        if (ca != null) {
            String expiry = JsonFiles.string(ca, "expiry", file);
            if (expiry != null && !expiry.isEmpty()) {
                caExpiry = expiry(file, "ca.expiry", expiry);
            }
            JsonNode pathLength = ca.get("pathlen");
            if (pathLength != null && !pathLength.isNull()) {
                if (!pathLength.canConvertToInt() || pathLength.asInt() < 0) {
                    throw new CfsslFormatException(file, "\"ca.pathlen\" must be a non-negative number");
                }
                caPathLength = pathLength.asInt();
            }
        }
        if ((commonName == null || commonName.isEmpty()) && hosts.isEmpty() && names.isEmpty()) {
            // A certificate with neither subject nor alternative names identifies nothing.
            throw new CfsslFormatException(file, "missing CN, hosts and names: the request does not name anything");
        }
        return new CfsslCsr(file, commonName == null ? "" : commonName, hosts, keySpec, names, caExpiry, caPathLength);
    }

    /** The request as a template; usages and validity come from the signing profile. */
    public CertificateRequest toRequest(List<String> hostOverride) {
        CertificateRequest request = CertificateRequest.plain(commonName).keySpec(keySpec);
        for (SubjectName name : names) {
            request = request.name(name);
        }
        try {
            return request.hosts(hostOverride == null ? hosts : hostOverride);
        } catch (IllegalArgumentException e) {
            throw new CfsslFormatException(file, "\"hosts\": " + e.getMessage());
        }
    }

    static Duration expiry(Path file, String field, String text) {
        try {
            Duration value = GoDuration.parse(text);
            if (value.isZero() || value.isNegative()) {
                throw new CfsslFormatException(file, "\"" + field + "\" must be positive, got \"" + text + "\"");
            }
            return value;
        } catch (IllegalArgumentException e) {
            throw new CfsslFormatException(file, "\"" + field + "\": " + e.getMessage());
        }
    }
}
