package io.etcdj.launcher.spec;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a plain Procfile: one {@code name: command} per line, {@code #} comment lines, blank
 * lines ignored. Every command must run an etcd member (etcd's own Procfile does).
 */
final class ProcfileParser {
    private static final Pattern ENTRY = Pattern.compile("^([A-Za-z0-9_.-]+)\\s*:\\s*(.*)$");

    private ProcfileParser() {}

    static ClusterSpec parse(String source, String text, Map<String, String> env)
            throws ClusterFileException {
        List<MemberSpec> members = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        String token = null;
        int tokenLine = 0;
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            int lineNo = i + 1;
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            Matcher m = ENTRY.matcher(line);
            if (!m.matches()) {
                throw new ClusterFileException(source, lineNo, "expected \"name: command\", got \"" + line + "\"");
            }
            String process = m.group(1);
            if (m.group(2).isBlank()) {
                throw new ClusterFileException(source, lineNo, "process \"" + process + "\" has no command");
            }
            if (!seen.add(process)) {
                throw new ClusterFileException(source, lineNo, "process \"" + process + "\" is defined twice");
            }
            EtcdCommandParser.Parsed parsed;
            try {
                parsed = EtcdCommandParser.parse(process, m.group(2), lineNo, env);
            } catch (EtcdCommandParser.ParseError e) {
                throw new ClusterFileException(source, lineNo, e.getMessage());
            }
            if (parsed.token().isPresent()) {
                if (token != null && !token.equals(parsed.token().get())) {
                    throw new ClusterFileException(source, lineNo, "--initial-cluster-token \""
                            + parsed.token().get() + "\" differs from \"" + token + "\" on line " + tokenLine);
                }
                token = parsed.token().get();
                tokenLine = lineNo;
            }
            members.add(parsed.member());
        }
        if (members.isEmpty()) {
            throw new ClusterFileException(source, 0, "no processes defined");
        }
        return new ClusterSpec(source, token != null ? token : ClusterSpec.DEFAULT_TOKEN, false,
                Optional.empty(), ClusterSpec.DEFAULT_BASE_DIR, FaultMode.NONE, List.of(), Map.of(), members);
    }
}
