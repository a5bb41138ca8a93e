package io.etcdj.launcher.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.etcdj.cli.ExitCodes;
import io.etcdj.launcher.LauncherException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The page's buttons become the same control requests the launcher's commands send. */
class ControlActionsTest {
    @Test
    void buttonsBecomeControlRequests() {
        assertEquals(List.of("kill", "infra1"), ControlActions.request("kill", "infra1", ""));
        assertEquals(List.of("delay", "infra2", "250"), ControlActions.request("delay", "infra2", " 250"));
        assertEquals(List.of("heal"), ControlActions.request("heal", "", ""));
        assertEquals(List.of("heal", "infra3"), ControlActions.request("heal", "infra3", ""));
        assertEquals(List.of("add-member", "infra4", "true", "", ""), ControlActions.request("add-member", "infra4", "learner"));
        assertEquals(List.of("move-leader", "infra2"), ControlActions.request("move-leader", "infra2", ""));
    }

    @Test
    void theEventLogShowsTheCommandAUserWouldType() {
        assertEquals("add-member infra4 --learner", ControlActions.describe(ControlActions.request("add-member", "infra4", "learner")));
        assertEquals("delay infra2 250", ControlActions.describe(ControlActions.request("delay", "infra2", "250")));
    }

    @Test
    void badRequestsAreRefusedWithAReason() {
        assertEquals("kill needs a member", refused("kill", "", ""));
        assertEquals("delay needs a number of milliseconds, got \"soon\"", refused("delay", "infra1", "soon"));
        assertEquals("delay needs a member and 0 to 60000 ms", refused("delay", "infra1", "-5"));
        assertEquals("a new member's name is letters, digits, '.', '_' or '-', got \"a b\"", refused("add-member", "a b", ""));
        assertEquals("unknown action \"format-disk\"", refused("format-disk", "infra1", ""));
    }

    private static String refused(String verb, String member, String value) {
        LauncherException e = assertThrows(LauncherException.class, () -> ControlActions.request(verb, member, value));
        assertEquals(ExitCodes.USAGE, e.exitCode());
        return e.getMessage();
    }
}
