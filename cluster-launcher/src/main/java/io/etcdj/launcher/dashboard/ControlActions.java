package io.etcdj.launcher.dashboard;

import io.etcdj.cli.ExitCodes;
import io.etcdj.launcher.LauncherException;
import io.etcdj.launcher.supervisor.ClusterState;
import io.etcdj.launcher.supervisor.ControlClient;
import io.etcdj.launcher.supervisor.StateFile;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;

/**
 * The page's buttons: each becomes the control request the matching launcher command sends
 * ({@code kill infra1}, {@code delay infra2 200}, ...) to the supervisor named in the state file,
 * so the dashboard never acts on processes itself. Requests are checked here first, so a bad
 * one gets a clear answer without reaching the supervisor.
 */
final class ControlActions {
    /** Verbs that take one member name. */
    private static final Set<String> MEMBER_VERBS = Set.of("kill", "stop", "start", "restart", "pause", "resume",
            "partition", "heal", "promote", "remove-member", "move-leader");
    /** etcd's own rule for --name is loose; the launcher's file names are these. */
    private static final Pattern NEW_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,62}");

    /** What the supervisor answered: its exit code and the lines it printed. */
    record Result(int exitCode, String output, String error) {
        boolean ok() {
            return exitCode == ExitCodes.SUCCESS;
        }
    }

    private final StateFile stateFile;
    private final EventDetector detector;
    private final EventLog log;
    private final LongSupplier clock;

    ControlActions(StateFile stateFile, EventDetector detector, EventLog log, LongSupplier clock) {
        this.stateFile = stateFile;
        this.detector = detector;
        this.log = log;
        this.clock = clock;
    }

    /**
     * Runs one action. {@code member} names the member ("" for heal of all); {@code value} is the
     * delay in ms for delay, "learner" or "voter" for add-member.
     */
    Result run(String verb, String member, String value) {
        List<String> request = request(verb, member, value);
        ClusterState state = stateFile.read()
                .filter(s -> ClusterState.RUNNING.equals(s.phase()) && s.supervisorAlive())
                .orElseThrow(() -> new LauncherException("no cluster is running in this base dir", ExitCodes.NOT_RUNNING));
        if (!verb.equals("add-member") && !member.isEmpty() && state.member(member).isEmpty()) {
            throw new LauncherException("unknown member \"" + member + "\"", ExitCodes.USAGE);
        }
        detector.actionSent(state.member(member).map(ClusterState.MemberState::process).orElse(member), verb,
                clock.getAsLong());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = ControlClient.send(state, request, o, e);
        } catch (LauncherException e) {
            err.writeBytes(("Error: " + e.getMessage() + "\n").getBytes(StandardCharsets.UTF_8));
            code = e.exitCode();
        }
        Result result = new Result(code, out.toString(StandardCharsets.UTF_8).strip(),
                err.toString(StandardCharsets.UTF_8).strip());
        String command = describe(request);
        if (result.ok()) {
            log.add("action", command + ": " + firstLine(result.output()));
        } else {
            log.add("error", command + ": " + firstLine(result.error()).replaceFirst("^Error: ", ""));
        }
        return result;
    }

    /** The control request for an action, or a usage error. */
    static List<String> request(String verb, String member, String value) {
        List<String> request = new ArrayList<>();
        request.add(verb);
        if (MEMBER_VERBS.contains(verb)) {
            if (member.isEmpty() && !verb.equals("heal")) {
                throw new LauncherException(verb + " needs a member", ExitCodes.USAGE);
            }
            if (!member.isEmpty()) {
                request.add(member);
            }
        } else if (verb.equals("delay")) {
            int millis;
            try {
                millis = Integer.parseInt(value.trim());
            } catch (NumberFormatException e) {
                throw new LauncherException("delay needs a number of milliseconds, got \"" + value + "\"", ExitCodes.USAGE);
            }
            if (member.isEmpty() || millis < 0 || millis > 60_000) {
                throw new LauncherException("delay needs a member and 0 to 60000 ms", ExitCodes.USAGE);
            }
            request.add(member);
            request.add(Integer.toString(millis));
        } else if (verb.equals("add-member")) {
            if (!NEW_NAME.matcher(member).matches()) {
                throw new LauncherException("a new member's name is letters, digits, '.', '_' or '-', got \"" + member + "\"",
                        ExitCodes.USAGE);
            }
            request.addAll(List.of(member, Boolean.toString(!"voter".equals(value)), "", ""));
        } else {
            throw new LauncherException("unknown action \"" + verb + "\"", ExitCodes.USAGE);
        }
        return request;
    }

    /** The request as the launcher command a user would type. */
    static String describe(List<String> request) {
        if (request.get(0).equals("add-member")) {
            return "add-member " + request.get(1) + (Boolean.parseBoolean(request.get(2)) ? " --learner" : "");
        }
        return String.join(" ", request);
    }

    private static String firstLine(String text) {
        int nl = text.indexOf('\n');
        return nl < 0 ? text : text.substring(0, nl);
    }
}
