package io.etcdj.launcher.spec;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A YAML value that remembers the line it starts on, so errors found after parsing (an unknown
 * key, a bad URL) can still point at the line.
 */
final class YamlNode {
    enum Kind { MAP, LIST, SCALAR, NULL }

    final Kind kind;
    final int line;
    final String text;
    final Map<String, YamlNode> entries;
    final Map<String, Integer> keyLines;
    final List<YamlNode> items;

    private YamlNode(Kind kind, int line, String text, Map<String, YamlNode> entries,
            Map<String, Integer> keyLines, List<YamlNode> items) {
        this.kind = kind;
        this.line = line;
        this.text = text;
        this.entries = entries;
        this.keyLines = keyLines;
        this.items = items;
    }

    static YamlNode scalar(int line, String text) {
        return new YamlNode(Kind.SCALAR, line, text, Map.of(), Map.of(), List.of());
    }

    static YamlNode nil(int line) {
        return new YamlNode(Kind.NULL, line, null, Map.of(), Map.of(), List.of());
    }

    static YamlNode map(int line, LinkedHashMap<String, YamlNode> entries, Map<String, Integer> keyLines) {
        return new YamlNode(Kind.MAP, line, null, entries, keyLines, List.of());
    }

    static YamlNode list(int line, List<YamlNode> items) {
        return new YamlNode(Kind.LIST, line, null, Map.of(), Map.of(), items);
    }

    String describe() {
        return switch (kind) {
            case MAP -> "a mapping";
            case LIST -> "a list";
            case SCALAR -> "\"" + text + "\"";
            case NULL -> "nothing";
        };
    }
}
