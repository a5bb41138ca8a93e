package io.etcdj.server.osutil;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.Command;
import org.junit.jupiter.api.Test;

class InterruptsTest {

    /**
     * A process's status as the kernel writes it, for a child that inherited SIGINT and SIGTERM as
     * perl's {@code %SIG} values say ("DEFAULT" or "IGNORE"; perl, unlike a shell, can also undo an
     * ignore it inherited itself).
     */
    private static String statusOfChildWith(String sigint, String sigterm) throws Exception {
        String script = "$SIG{INT} = '" + sigint + "'; $SIG{TERM} = '" + sigterm + "'; exec 'cat', '/proc/self/status'";
        Command.Result r = Command.of("perl", "-e", script).run();
        assertEquals(0, r.exitCode(), r.toString());
        return r.stdout();
    }

    @Test
    void seesASignalTheProcessInheritedAsIgnored() throws Exception {
        String status = statusOfChildWith("IGNORE", "DEFAULT");
        assertTrue(Interrupts.ignoredIn(status, 2), status);
        assertFalse(Interrupts.ignoredIn(status, 15), status);
    }

    @Test
    void seesSigtermIgnoredApartFromSigint() throws Exception {
        String status = statusOfChildWith("DEFAULT", "IGNORE");
        assertFalse(Interrupts.ignoredIn(status, 2), status);
        assertTrue(Interrupts.ignoredIn(status, 15), status);
    }

    @Test
    void aStatusWithoutTheMaskIgnoresNothing() {
        assertFalse(Interrupts.ignoredIn("Name:\tjava\nState:\tS (sleeping)\n", 2));
    }
}
