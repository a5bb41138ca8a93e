package io.etcdj.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Properties;
import org.junit.jupiter.api.Test;

class MainEventLoopsTest {
    @Test
    void oneLoopPerCoreUnlessTheUserChose() {
        Properties p = new Properties();
        Main.eventLoopsPerCore(p, 2);
        assertEquals("2", p.getProperty("io.netty.eventLoopThreads"));

        Properties chosen = new Properties();
        chosen.setProperty("io.netty.eventLoopThreads", "8");
        Main.eventLoopsPerCore(chosen, 2);
        assertEquals("8", chosen.getProperty("io.netty.eventLoopThreads"));
    }

    @Test
    void atLeastOneLoop() {
        Properties p = new Properties();
        Main.eventLoopsPerCore(p, 0);
        assertEquals("1", p.getProperty("io.netty.eventLoopThreads"));
    }
}
