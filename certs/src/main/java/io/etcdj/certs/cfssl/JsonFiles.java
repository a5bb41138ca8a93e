package io.etcdj.certs.cfssl;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdj.certs.TlsMaterialException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads a JSON file (or standard input for "-") into a tree, with one-line errors naming the file. */
final class JsonFiles {
    static final ObjectMapper MAPPER = new ObjectMapper();
    static final Path STDIN = Path.of("-");

    private JsonFiles() {
    }

    static JsonNode read(Path file, InputStream stdin) {
        String text;
        try {
            text = file.equals(STDIN) ? new String(stdin.readAllBytes(), StandardCharsets.UTF_8) : Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new TlsMaterialException(file, "no such file or directory");
        } catch (AccessDeniedException e) {
            throw new TlsMaterialException(file, "permission denied");
        } catch (IOException e) {
            throw new TlsMaterialException(file, "cannot read: " + e.getMessage());
        }
        try {
            JsonNode node = MAPPER.readTree(text);
            if (node == null || !node.isObject()) {
                throw new CfsslFormatException(file, "malformed JSON: expected an object");
            }
            return node;
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? ""
                    : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
            throw new CfsslFormatException(file, "malformed JSON" + where + ": " + e.getOriginalMessage());
        }
    }

    static String string(JsonNode parent, String field, Path file) {
        JsonNode node = parent.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            throw new CfsslFormatException(file, "\"" + field + "\" must be a string");
        }
        return node.asText();
    }

    static List<String> strings(JsonNode parent, String field, Path file) {
        JsonNode node = parent.get(field);
        List<String> values = new ArrayList<>();
        if (node == null || node.isNull()) {
            return values;
        }
        if (!node.isArray()) {
            throw new CfsslFormatException(file, "\"" + field + "\" must be a list of strings");
        }
        for (JsonNode item : node) {
            if (!item.isTextual()) {
                throw new CfsslFormatException(file, "\"" + field + "\" must be a list of strings");
            }
            values.add(item.asText());
        }
        return values;
    }

    static JsonNode object(JsonNode parent, String field, Path file) {
        JsonNode node = parent.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isObject()) {
            throw new CfsslFormatException(file, "\"" + field + "\" must be an object");
        }
        return node;
    }
}
