package io.etcdj.launcher.spec;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the launcher's YAML cluster file: cluster-wide settings plus a {@code members} mapping
 * whose values are either an etcd command line (as in a Procfile) or structured settings.
 */
final class YamlClusterParser {
    private static final Set<String> CLUSTER_KEYS =
            Set.of("token", "tls", "etcd", "base-dir", "faults", "flags", "env", "members");
    private static final Set<String> MEMBER_KEYS =
            Set.of("name", "client-url", "peer-url", "listen-peer-url", "data-dir", "flags", "env");

    private final String source;
    private final Map<String, String> processEnv;

    private YamlClusterParser(String source, Map<String, String> processEnv) {
        this.source = source;
        this.processEnv = processEnv;
    }

    static ClusterSpec parse(String source, String text, Map<String, String> processEnv)
            throws ClusterFileException {
        return new YamlClusterParser(source, processEnv).parse(YamlTreeReader.read(source, text));
    }

    private ClusterSpec parse(YamlNode root) throws ClusterFileException {
        expect(root, YamlNode.Kind.MAP, "the cluster file");
        checkKeys(root, CLUSTER_KEYS, "cluster setting");
        String token = optionalScalar(root, "token").orElse(ClusterSpec.DEFAULT_TOKEN);
        boolean tls = bool(root, "tls", false);
        Optional<String> etcd = optionalScalar(root, "etcd");
        Path baseDir = optionalScalar(root, "base-dir").map(Path::of).orElse(ClusterSpec.DEFAULT_BASE_DIR);
        FaultMode faults = faults(root);
        List<String> flags = flags(root.entries.get("flags"));
        Map<String, String> env = env(root.entries.get("env"));
        YamlNode membersNode = root.entries.get("members");
        if (membersNode == null) {
            throw new ClusterFileException(source, root.line, "no \"members\" defined");
        }
        expect(membersNode, YamlNode.Kind.MAP, "\"members\"");
        if (membersNode.entries.isEmpty()) {
            throw new ClusterFileException(source, membersNode.line, "\"members\" is empty");
        }
        List<MemberSpec> members = new ArrayList<>();
        for (Map.Entry<String, YamlNode> e : membersNode.entries.entrySet()) {
            int line = membersNode.keyLines.get(e.getKey());
            members.add(member(e.getKey(), e.getValue(), line, token));
        }
        return new ClusterSpec(source, token, tls, etcd, baseDir, faults, flags, env, members);
    }

    private MemberSpec member(String process, YamlNode node, int line, String token)
            throws ClusterFileException {
        if (node.kind == YamlNode.Kind.SCALAR) {
            try {
                EtcdCommandParser.Parsed parsed = EtcdCommandParser.parse(process, node.text, line, processEnv);
                if (parsed.token().isPresent() && !parsed.token().get().equals(token)) {
                    throw new ClusterFileException(source, line, "--initial-cluster-token \""
                            + parsed.token().get() + "\" differs from the cluster token \"" + token + "\"");
                }
                return parsed.member();
            } catch (EtcdCommandParser.ParseError e) {
                throw new ClusterFileException(source, line, e.getMessage());
            }
        }
        expect(node, YamlNode.Kind.MAP, "member \"" + process + "\"");
        checkKeys(node, MEMBER_KEYS, "setting of member \"" + process + "\"");
        String name = optionalScalar(node, "name").orElse(process);
        List<URI> client = urls(node, "client-url", process);
        List<URI> peer = urls(node, "peer-url", process);
        List<URI> listenPeer = node.entries.containsKey("listen-peer-url")
                ? urls(node, "listen-peer-url", process) : peer;
        Optional<Path> dataDir = optionalScalar(node, "data-dir").map(Path::of);
        return new MemberSpec(process, name, client, client, listenPeer, peer, dataDir,
                flags(node.entries.get("flags")), env(node.entries.get("env")), "new", line);
    }

    private List<URI> urls(YamlNode member, String key, String process) throws ClusterFileException {
        YamlNode node = member.entries.get(key);
        if (node == null) {
            throw new ClusterFileException(source, member.line, "member \"" + process + "\" needs \"" + key + "\"");
        }
        List<String> texts = new ArrayList<>();
        if (node.kind == YamlNode.Kind.LIST) {
            for (YamlNode item : node.items) {
                expect(item, YamlNode.Kind.SCALAR, "an entry of \"" + key + "\"");
                texts.add(item.text);
            }
        } else {
            expect(node, YamlNode.Kind.SCALAR, "\"" + key + "\"");
            texts.add(node.text);
        }
        try {
            return Urls.parseList(String.join(",", texts), key);
        } catch (EtcdCommandParser.ParseError e) {
            throw new ClusterFileException(source, node.line, e.getMessage());
        }
    }

    private FaultMode faults(YamlNode root) throws ClusterFileException {
        Optional<String> text = optionalScalar(root, "faults");
        if (text.isEmpty()) {
            return FaultMode.NONE;
        }
        return switch (text.get()) {
            case "none", "off", "false" -> FaultMode.NONE;
            case "proxy" -> FaultMode.PROXY;
            default -> throw new ClusterFileException(source, root.entries.get("faults").line,
                    "\"faults\" must be \"proxy\" or \"none\" (got \"" + text.get() + "\")");
        };
    }

    /** Flags are a list of words or one string split like a shell command line. */
    private List<String> flags(YamlNode node) throws ClusterFileException {
        if (node == null || node.kind == YamlNode.Kind.NULL) {
            return List.of();
        }
        if (node.kind == YamlNode.Kind.SCALAR) {
            try {
                return ShellWords.split(node.text, processEnv);
            } catch (IllegalArgumentException e) {
                throw new ClusterFileException(source, node.line, "\"flags\": " + e.getMessage());
            }
        }
        expect(node, YamlNode.Kind.LIST, "\"flags\"");
        List<String> flags = new ArrayList<>();
        for (YamlNode item : node.items) {
            expect(item, YamlNode.Kind.SCALAR, "an entry of \"flags\"");
            flags.add(item.text);
        }
        return flags;
    }

    private Map<String, String> env(YamlNode node) throws ClusterFileException {
        if (node == null || node.kind == YamlNode.Kind.NULL) {
            return Map.of();
        }
        expect(node, YamlNode.Kind.MAP, "\"env\"");
        Map<String, String> env = new LinkedHashMap<>();
        for (Map.Entry<String, YamlNode> e : node.entries.entrySet()) {
            YamlNode value = e.getValue();
            expect(value, YamlNode.Kind.SCALAR, "env \"" + e.getKey() + "\"");
            env.put(e.getKey(), value.text);
        }
        return env;
    }

    private boolean bool(YamlNode map, String key, boolean fallback) throws ClusterFileException {
        Optional<String> text = optionalScalar(map, key);
        if (text.isEmpty()) {
            return fallback;
        }
        return switch (text.get()) {
            case "true", "yes", "on" -> true;
            case "false", "no", "off" -> false;
            default -> throw new ClusterFileException(source, map.entries.get(key).line,
                    "\"" + key + "\" must be true or false (got \"" + text.get() + "\")");
        };
    }

    private Optional<String> optionalScalar(YamlNode map, String key) throws ClusterFileException {
        YamlNode node = map.entries.get(key);
        if (node == null || node.kind == YamlNode.Kind.NULL) {
            return Optional.empty();
        }
        expect(node, YamlNode.Kind.SCALAR, "\"" + key + "\"");
        return Optional.of(node.text);
    }

    private void checkKeys(YamlNode map, Set<String> allowed, String what) throws ClusterFileException {
        for (String key : map.entries.keySet()) {
            if (!allowed.contains(key)) {
                throw new ClusterFileException(source, map.keyLines.get(key), "unknown " + what + " \""
                        + key + "\" (expected one of: " + String.join(", ", allowed.stream().sorted().toList()) + ")");
            }
        }
    }

    private void expect(YamlNode node, YamlNode.Kind kind, String what) throws ClusterFileException {
        if (node.kind != kind) {
            String wanted = switch (kind) {
                case MAP -> "a mapping";
                case LIST -> "a list";
                case SCALAR -> "a single value";
                case NULL -> "empty";
            };
            throw new ClusterFileException(source, node.line, what + " must be " + wanted + ", got " + node.describe());
        }
    }
}
