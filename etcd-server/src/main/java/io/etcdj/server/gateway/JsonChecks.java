package io.etcdj.server.gateway;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.Descriptors;
import java.util.Iterator;
import java.util.Map;

/**
 * Checks a gateway request body the way etcd's gateway (Go's encoding/json under grpc-gateway)
 * refuses it, so the error texts are Go's and never name a Java class: malformed JSON
 * ("unexpected EOF", "invalid character ..."), and values of the wrong JSON type for a field
 * ("json: cannot unmarshal number into Go value of type []uint8" for {"key":123}).
 */
final class JsonChecks {
    private static final ObjectMapper JSON = new ObjectMapper();

    private JsonChecks() {
    }

    /** Null if the body may be parsed into {@code type}, else the error to answer with. */
    static String check(String body, Descriptors.Descriptor type) {
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (JsonProcessingException e) {
            return syntaxError(e.getOriginalMessage());
        }
        return root == null ? null : value(root, type);
    }

    private static String syntaxError(String jackson) {
        String m = jackson == null ? "" : jackson;
        if (m.contains("end-of-input") || m.contains("End-of-input")) {
            return "unexpected EOF";
        }
        int q = m.indexOf("('");
        if (m.startsWith("Unexpected character") && q >= 0 && m.length() > q + 2) {
            return "invalid character '" + m.charAt(q + 2) + "' looking for beginning of value";
        }
        return "invalid character looking for beginning of value";
    }

    private static String value(JsonNode node, Descriptors.Descriptor type) {
        if (!node.isObject()) {
            return node.isNull() ? null : "json: cannot unmarshal " + kind(node) + " into Go value of type map[string]json.RawMessage";
        }
        Iterator<Map.Entry<String, JsonNode>> it = node.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            Descriptors.FieldDescriptor f = type.findFieldByName(e.getKey());
            if (f == null) {
                for (Descriptors.FieldDescriptor c : type.getFields()) {
                    if (c.getJsonName().equals(e.getKey())) {
                        f = c;
                    }
                }
            }
            JsonNode v = e.getValue();
            if (f == null || v.isNull()) {
                continue;
            }
            if (f.isRepeated()) {
                if (!v.isArray()) {
                    return "json: cannot unmarshal " + kind(v) + " into Go value of type []json.RawMessage";
                }
                for (JsonNode item : v) {
                    String err = field(f, item);
                    if (err != null) {
                        return err;
                    }
                }
            } else {
                String err = field(f, v);
                if (err != null) {
                    return err;
                }
            }
        }
        return null;
    }

    private static String field(Descriptors.FieldDescriptor f, JsonNode v) {
        return switch (f.getJavaType()) {
            case BYTE_STRING -> v.isTextual() ? null : mismatch(v, "[]uint8");
            case STRING -> v.isTextual() ? null : mismatch(v, "string");
            case BOOLEAN -> v.isBoolean() ? null : mismatch(v, "bool");
            case INT, LONG -> v.isNumber() || v.isTextual() ? null : mismatch(v,
                    f.getJavaType() == Descriptors.FieldDescriptor.JavaType.INT ? "int32" : "int64");
            case FLOAT, DOUBLE -> v.isNumber() || v.isTextual() ? null : mismatch(v, "float64");
            case ENUM -> v.isNumber() || v.isTextual() ? null : mismatch(v, f.getEnumType().getName());
            case MESSAGE -> value(v, f.getMessageType());
        };
    }

    private static String mismatch(JsonNode v, String goType) {
        return "json: cannot unmarshal " + kind(v) + " into Go value of type " + goType;
    }

    private static String kind(JsonNode v) {
        if (v.isNumber()) {
            return "number";
        }
        if (v.isTextual()) {
            return "string";
        }
        if (v.isBoolean()) {
            return "bool";
        }
        return v.isArray() ? "array" : "object";
    }
}
