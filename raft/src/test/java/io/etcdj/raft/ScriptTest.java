package io.etcdj.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.etcdj.raftpb.ConfChange;
import io.etcdj.raftpb.ConfChangeType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Script-driven scenarios with golden output. Each file under {@code scripts/} holds blocks of
 * a command, a {@code ----} line, and the expected output, ended by a blank line. The output of
 * commands that move messages is the exact message traffic, so a behaviour change shows up as a
 * readable diff. Run with {@code -Draft.rewrite=true} to regenerate the expected output after an
 * intended change, then review the diff.
 */
class ScriptTest {
    private static final Path SCRIPTS = Path.of("src/test/resources/io/etcdj/raft/scripts");
    private static final boolean REWRITE = Boolean.getBoolean("raft.rewrite");

    @TestFactory
    Stream<DynamicTest> scripts() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(SCRIPTS)) {
            files = s.filter(p -> p.toString().endsWith(".txt")).sorted().toList();
        }
        assertFalse(files.isEmpty(), "no scripts found in " + SCRIPTS.toAbsolutePath());
        return files.stream().map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> run(f)));
    }

    private static void run(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        StringBuilder rewritten = new StringBuilder();
        Interpreter interpreter = new Interpreter();
        int i = 0;
        while (i < lines.size()) {
            String line = lines.get(i);
            if (line.isBlank() || line.startsWith("#")) {
                rewritten.append(line).append('\n');
                i++;
                continue;
            }
            if (i + 1 >= lines.size() || !lines.get(i + 1).equals("----")) {
                throw new AssertionError(file + ":" + (i + 1) + ": expected '----' after the command");
            }
            int end = i + 2;
            while (end < lines.size() && !lines.get(end).isEmpty()) {
                end++;
            }
            String expected = String.join("\n", lines.subList(i + 2, end));
            String actual = interpreter.execute(line);
            if (!REWRITE) {
                assertEquals(expected, actual, file.getFileName() + ":" + (i + 1) + ": " + line);
            }
            rewritten.append(line).append("\n----\n").append(actual).append('\n');
            i = end;
        }
        if (REWRITE) {
            Files.writeString(file, rewritten.toString().replaceAll("\n+$", "\n"), StandardCharsets.UTF_8);
        }
    }

    /** Executes one command against a {@link TestCluster} and describes what happened. */
    private static final class Interpreter {
        private TestCluster cluster;
        private final List<String> out = new ArrayList<>();

        String execute(String commandLine) {
            out.clear();
            List<String> args = Arrays.asList(commandLine.trim().split("\\s+"));
            String cmd = args.get(0);
            if (cluster != null) {
                cluster.trace = out::add;
            }
            try {
                switch (cmd) {
                    case "bootstrap" -> bootstrap(args);
                    case "campaign" -> {
                        node(args.get(1)).node.campaign();
                        cluster.stabilize();
                    }
                    case "propose" -> {
                        node(args.get(1)).node.propose(args.get(2).getBytes(StandardCharsets.UTF_8));
                        cluster.stabilize();
                    }
                    case "tick" -> {
                        long[] ids = args.subList(2, args.size()).stream().mapToLong(Long::parseLong).toArray();
                        cluster.tick(Integer.parseInt(args.get(1)), ids);
                    }
                    case "isolate" -> cluster.isolate(Long.parseLong(args.get(1)));
                    case "cut" -> cluster.cut(Long.parseLong(args.get(1)), Long.parseLong(args.get(2)));
                    case "heal" -> cluster.heal();
                    case "transfer-leader" -> {
                        node(args.get(1)).node.transferLeader(Long.parseLong(args.get(2)));
                        cluster.stabilize();
                    }
                    case "read-index" -> readIndex(args);
                    case "add-learner", "add-voter", "remove" -> confChange(cmd, args);
                    case "compact" -> node(args.get(1)).snapshotAndCompact(0);
                    case "status" -> status();
                    default -> throw new IllegalArgumentException("unknown command " + cmd);
                }
            } catch (ProposalDroppedException e) {
                out.add("error: " + e.getMessage());
            }
            return out.isEmpty() ? "ok" : String.join("\n", out);
        }

        private void bootstrap(List<String> args) {
            boolean preVote = !args.contains("pre-vote=false");
            boolean checkQuorum = !args.contains("check-quorum=false");
            cluster = TestCluster.of(Integer.parseInt(args.get(1)), b -> b.preVote(preVote).checkQuorum(checkQuorum));
            cluster.trace = out::add;
        }

        private void readIndex(List<String> args) {
            TestNode n = node(args.get(1));
            n.node.readIndex(args.get(2).getBytes(StandardCharsets.UTF_8));
            cluster.stabilize();
            for (ReadState rs : n.readStates) {
                out.add("read state on " + n.id + ": index=" + rs.index() + " ctx="
                        + new String(rs.requestCtx(), StandardCharsets.UTF_8));
            }
            n.readStates.clear();
        }

        private void confChange(String cmd, List<String> args) {
            long target = Long.parseLong(args.get(2));
            if (!cmd.equals("remove") && !cluster.nodes.containsKey(target)) {
                cluster.addEmptyNode(target, b -> b);
            }
            ConfChangeType type = switch (cmd) {
                case "add-learner" -> ConfChangeType.ConfChangeAddLearnerNode;
                case "add-voter" -> ConfChangeType.ConfChangeAddNode;
                default -> ConfChangeType.ConfChangeRemoveNode;
            };
            node(args.get(1)).node.proposeConfChange(ConfChange.newBuilder().setType(type).setNodeId(target).build());
            cluster.stabilize();
        }

        private void status() {
            for (TestNode n : cluster.nodes.values()) {
                Status st = n.status();
                out.add(n.id + ": " + st.role() + " term=" + st.term() + " lead=" + st.lead() + " commit=" + st.commit()
                        + " applied=" + st.applied() + " voters=" + st.confState().getVotersList()
                        + (st.confState().getLearnersCount() > 0 ? " learners=" + st.confState().getLearnersList() : "")
                        + " data=" + n.appliedData());
            }
        }

        private TestNode node(String id) {
            return cluster.node(Long.parseLong(id));
        }
    }
}
