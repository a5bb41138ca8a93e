package io.etcdj.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdj.server.log.Rotation;
import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * --enable-log-rotation with --log-rotation-config-json, validated as etcd validates them: one file
 * target among --log-outputs; the JSON decoded as Go decodes it into lumberjack's Logger, with Go's
 * error texts.
 */
final class LogRotation {
    static final String INVALID_OUTPUT = "--log-outputs requires a single file path when --log-rotate-config-json is defined";
    private static final Map<String, String> FIELDS = Map.of("filename", "string", "maxsize", "int", "maxage", "int",
            "maxbackups", "int", "localtime", "bool", "compress", "bool");

    private LogRotation() {
    }

    /** The rotation for these outputs and JSON, or etcd's error. */
    static Rotation parse(List<String> logOutputs, String json) throws ConfigException {
        int files = 0;
        for (String o : logOutputs) {
            switch (o.trim()) {
                case "default", "stderr", "stdout" -> {
                }
                default -> files++;
            }
        }
        if ((logOutputs.size() == 1 && files == 0) || files > 1) {
            throw new ConfigException(INVALID_OUTPUT);
        }
        String syntax = GoJson.syntaxError(json);
        if (syntax != null) {
            throw new ConfigException("improperly formatted log rotation config: " + syntax);
        }
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(json);
        } catch (IOException e) {
            throw new ConfigException("improperly formatted log rotation config: " + e.getMessage());
        }
        if (!root.isObject() && !root.isNull()) {
            throw new ConfigException("invalid log rotation config: json: cannot unmarshal " + kind(root)
                    + " into Go value of type embed.logRotationConfig");
        }
        long[] ints = {0, 0, 0};
        boolean[] bools = {false, false};
        String typeError = null;
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String field = field(e.getKey());
            JsonNode v = e.getValue();
            if (field == null || v.isNull()) {
                continue;
            }
            String type = FIELDS.get(field);
            boolean fits = switch (type) {
                case "int" -> v.isIntegralNumber() && v.canConvertToLong() && v.asText().matches("-?\\d+");
                case "bool" -> v.isBoolean();
                default -> v.isTextual();
            };
            if (!fits) {
                if (typeError == null) {
                    String value = type.equals("int") && v.isNumber() ? "number " + numberText(json, e.getKey(), v) : kind(v);
                    typeError = "invalid log rotation config: json: cannot unmarshal " + value
                            + " into Go struct field logRotationConfig.Logger." + field + " of type " + type;
                }
                continue;
            }
            switch (field) {
                case "maxsize" -> ints[0] = v.asLong();
                case "maxage" -> ints[1] = v.asLong();
                case "maxbackups" -> ints[2] = v.asLong();
                case "localtime" -> bools[0] = v.asBoolean();
                case "compress" -> bools[1] = v.asBoolean();
                default -> {
                }
            }
        }
        if (typeError != null) {
            throw new ConfigException(typeError);
        }
        return new Rotation(ints[0], ints[1], ints[2], bools[0], bools[1]);
    }

    /** Go matches JSON keys to fields exactly, then ignoring case. */
    private static String field(String key) {
        if (FIELDS.containsKey(key)) {
            return key;
        }
        return FIELDS.keySet().stream().filter(f -> f.equalsIgnoreCase(key)).findFirst().orElse(null);
    }

    private static String kind(JsonNode v) {
        if (v.isTextual()) {
            return "string";
        }
        if (v.isNumber()) {
            return "number";
        }
        if (v.isBoolean()) {
            return "bool";
        }
        return v.isArray() ? "array" : "object";
    }

    /** The number as written in the JSON (Go quotes the literal), found after its key. */
    private static String numberText(String json, String key, JsonNode v) {
        Matcher m = Pattern.compile("\"" + Pattern.quote(key)
                + "\"\\s*:\\s*(-?[0-9.eE+-]+)").matcher(json);
        return m.find() ? m.group(1) : v.asText();
    }
}
