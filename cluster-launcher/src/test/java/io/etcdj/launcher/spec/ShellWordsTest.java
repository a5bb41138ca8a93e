package io.etcdj.launcher.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ShellWordsTest {
    @Test
    void splitsLikeSh() {
        assertEquals(List.of("etcd", "--a", "x y", "it's", "$HOME", "v"),
                ShellWords.split("etcd  --a 'x y' \"it's\" '$HOME' ${V}", Map.of("V", "v")));
        assertEquals(List.of("a=b c"), ShellWords.split("a=\"b c\"", Map.of()));
        assertEquals(List.of("a b"), ShellWords.split("a\\ b", Map.of()));
        assertEquals(List.of("", "x"), ShellWords.split("$UNSET'' x", Map.of()));
    }

    @Test
    void refusesShellOperators() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ShellWords.split("etcd | tee log", Map.of()));
        assertEquals("shell operator '|' is not supported; write a single etcd command", e.getMessage());
    }
}
