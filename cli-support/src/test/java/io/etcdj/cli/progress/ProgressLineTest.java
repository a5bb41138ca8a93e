package io.etcdj.cli.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.Eventually;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** What a person sees on the progress line, and that it leaves nothing behind. */
class ProgressLineTest {
    private static final long SECOND = 1_000_000_000L;

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private long now;

    private ProgressLine line(ProgressLine.Unit unit, String noun) {
        return ProgressLine.at(new PrintStream(err, true, StandardCharsets.UTF_8), () -> now, "work", unit, noun);
    }

    private String written() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void bytesWithTotalShowPercentRateAndEta() {
        ProgressLine p = line(ProgressLine.Unit.BYTES, "");
        assertEquals("work: 10.0 MiB of 40.0 MiB (25%), 5.0 MiB/s, ETA 6s", p.text(10L << 20, 40L << 20, 2 * SECOND));
    }

    @Test
    void countsNameWhatIsCountedAndLeaveOutTheEtaWhenDone() {
        ProgressLine p = line(ProgressLine.Unit.COUNT, "members");
        assertEquals("work: 1 of 3 members (33%), 0.5 members/s, ETA 4s", p.text(1, 3, 2 * SECOND));
        assertEquals("work: 3 of 3 members (100%), 1.5 members/s", p.text(3, 3, 2 * SECOND));
        assertEquals("work: 0 of 3 members (0%)", p.text(0, 3, 0));
    }

    @Test
    void anUnknownTotalShowsTheAmountAndRateOnly() {
        assertEquals("work: 2.0 KiB, 1.0 KiB/s", line(ProgressLine.Unit.BYTES, "").text(2048, 0, 2 * SECOND));
    }

    @Test
    void longEtasInMinutesAndHours() {
        assertEquals("59s", ProgressLine.duration(59));
        assertEquals("2m5s", ProgressLine.duration(125));
        assertEquals("1h1m", ProgressLine.duration(3660));
    }

    @Test
    void redrawnInPlaceAtMostFiveTimesASecondAndErasedAtTheEnd() {
        ProgressLine p = line(ProgressLine.Unit.COUNT, "keys");
        p.update(1, 10);
        p.update(2, 10); // within 200 ms of the first: not drawn
        now += SECOND / 4;
        p.update(3, 10);
        p.close();
        String out = written();
        assertEquals(3, out.split("\r\033\\[K", -1).length - 1, out);
        assertTrue(out.contains("work: 1 of 10 keys"), out);
        assertFalse(out.contains("work: 2 of"), out);
        assertTrue(out.contains("work: 3 of 10 keys"), out);
        assertTrue(out.endsWith("\r\033[K"), "the line is erased, so the next output starts on a clean line");
        assertFalse(out.contains("\n"), "never a new line: one line rewritten");
    }

    @Test
    void waitingShowsTheLabelAndTheTimeSpent() {
        ProgressLine p = line(ProgressLine.Unit.COUNT, "");
        assertEquals("work (0s)", p.waitingText(SECOND / 2));
        assertEquals("work (1m5s)", p.waitingText(65 * SECOND));
        p.waiting();
        assertTrue(written().endsWith("\r\033[Kwork (0s)"), written());
    }

    @Test
    void redrawAfterClearShowsTheLastStateAtOnce() {
        ProgressLine p = line(ProgressLine.Unit.COUNT, "members");
        p.redraw(); // nothing reported yet: nothing to draw
        assertEquals("", written());
        p.update(1, 3);
        p.clear();
        p.redraw(); // within 200 ms of the first drawing, yet drawn: other output was printed in between
        String out = written();
        assertEquals(2, out.split("work: 1 of 3 members", -1).length - 1, out);
        assertTrue(out.endsWith("work: 1 of 3 members (33%)"), out);
    }

    @Test
    void duringShowsTheLineWhileTheCallRunsAndErasesIt() throws Exception {
        ProgressLine p = ProgressLine.at(new PrintStream(err, true, StandardCharsets.UTF_8), System::nanoTime, "work",
                ProgressLine.Unit.COUNT, "");
        String result = p.during(Duration.ZERO, () -> {
            try {
                Eventually.until("the line drawn while the call runs", Duration.ofSeconds(30),
                        Duration.ofMillis(10), () -> written().contains("work ("));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "done";
        });
        assertEquals("done", result);
        assertTrue(written().contains("\r\033[Kwork (0s)"), written());
        assertTrue(written().endsWith("\r\033[K"), "erased when the call returns: " + written());
    }

    @Test
    void aQuickCallDrawsNothing() {
        ProgressLine p = line(ProgressLine.Unit.COUNT, "");
        assertEquals(7, p.during(Duration.ofHours(1), () -> 7));
        assertEquals("", written());
    }

    @Test
    void offDrawsNothing() {
        ProgressLine p = ProgressLine.off();
        p.update(1, 2);
        p.clear();
        p.close();
        assertFalse(p.isOn());
    }

    @Test
    void terminalsArePseudoTerminalsAndConsolesOnly() {
        assertTrue(Terminals.isTerminalDevice("/dev/pts/3"));
        assertTrue(Terminals.isTerminalDevice("/dev/tty1"));
        assertFalse(Terminals.isTerminalDevice("/dev/null"));
        assertFalse(Terminals.isTerminalDevice("pipe:[12345]"));
        assertFalse(Terminals.isTerminalDevice("/tmp/out.log"));
    }

    @Test
    void sttySizeGivesTheColumns() {
        assertEquals(100, Terminals.columns("24 100\n"));
        assertEquals(0, Terminals.columns("0 0"));
        assertEquals(0, Terminals.columns(""));
        assertEquals(0, Terminals.columns("stty: 'standard input': Inappropriate ioctl for device"));
    }
}
