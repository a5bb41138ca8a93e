package io.etcdj.launcher.spec;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads YAML text into {@link YamlNode}s with Jackson's streaming YAML parser. */
final class YamlTreeReader {
    private static final YAMLFactory FACTORY = new YAMLFactory();

    private YamlTreeReader() {}

    static YamlNode read(String source, String text) throws ClusterFileException {
        try (JsonParser parser = FACTORY.createParser(text)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                throw new ClusterFileException(source, 0, "the file is empty");
            }
            return readValue(source, parser);
        } catch (JsonProcessingException e) {
            int line = e.getLocation() != null ? e.getLocation().getLineNr() : 0;
            throw new ClusterFileException(source, line, "invalid YAML: " + firstLine(e.getOriginalMessage()));
        } catch (IOException e) {
            throw new ClusterFileException(source, 0, "cannot read: " + e.getMessage());
        }
    }

    private static YamlNode readValue(String source, JsonParser p) throws IOException, ClusterFileException {
        int line = p.currentTokenLocation().getLineNr();
        JsonToken token = p.currentToken();
        switch (token) {
            case START_OBJECT: {
                LinkedHashMap<String, YamlNode> entries = new LinkedHashMap<>();
                Map<String, Integer> keyLines = new HashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    int keyLine = p.currentTokenLocation().getLineNr();
                    if (entries.containsKey(key)) {
                        throw new ClusterFileException(source, keyLine, "duplicate key \"" + key + "\"");
                    }
                    p.nextToken();
                    entries.put(key, readValue(source, p));
                    keyLines.put(key, keyLine);
                }
                return YamlNode.map(line, entries, keyLines);
            }
            case START_ARRAY: {
                List<YamlNode> items = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    items.add(readValue(source, p));
                }
                return YamlNode.list(line, items);
            }
            case VALUE_NULL:
                return YamlNode.nil(line);
            default:
                return YamlNode.scalar(line, p.getText());
        }
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "syntax error";
        }
        int nl = message.indexOf('\n');
        return nl >= 0 ? message.substring(0, nl) : message;
    }
}
