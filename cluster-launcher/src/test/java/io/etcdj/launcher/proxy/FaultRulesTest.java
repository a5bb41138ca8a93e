package io.etcdj.launcher.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class FaultRulesTest {
    @Test
    void aLinkIsAffectedWhenEitherEndIs() {
        FaultRules rules = new FaultRules();
        rules.partition("a");
        assertTrue(rules.blocked("a", Optional.of("b")));
        assertTrue(rules.blocked("b", Optional.of("a")));
        assertTrue(rules.blocked("a", Optional.empty()));
        assertFalse(rules.blocked("b", Optional.of("c")));
        assertFalse(rules.blocked("b", Optional.empty()));
        rules.delay("c", 40);
        rules.delay("b", 10);
        assertEquals(40, rules.delayMillis("b", Optional.of("c")));
        assertEquals(10, rules.delayMillis("b", Optional.empty()));
        rules.delay("c", 0);
        assertEquals(0, rules.delayOf("c"));
        rules.heal();
        assertFalse(rules.blocked("a", Optional.of("b")));
        assertEquals(0, rules.delayMillis("b", Optional.of("c")));
    }

    @Test
    void aCutLinkBlocksOnlyTrafficBetweenItsTwoEnds() {
        FaultRules rules = new FaultRules();
        rules.cut("b", "a");
        assertTrue(rules.blocked("a", Optional.of("b")));
        assertTrue(rules.blocked("b", Optional.of("a")));
        assertFalse(rules.blocked("a", Optional.of("c")));
        assertFalse(rules.blocked("c", Optional.of("b")));
        assertFalse(rules.blocked("a", Optional.empty()), "an unknown source is judged by its destination only");
        rules.heal();
        assertFalse(rules.blocked("a", Optional.of("b")));
    }
}
