package io.etcdj.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class GoBytesTest {
    @Test
    void matchesEtcdOutputs() {
        // figures etcd printed for real snapshot files (20480 bytes rounds half to even: 20.5 -> 20)
        assertEquals("20 kB", GoBytes.format(20480));
        assertEquals("25 kB", GoBytes.format(24576));
        assertEquals("2.1 MB", GoBytes.format(2125824));
    }

    @Test
    void smallAndBoundaryValues() {
        assertEquals("0 B", GoBytes.format(0));
        assertEquals("9 B", GoBytes.format(9));
        assertEquals("10 B", GoBytes.format(10));
        assertEquals("999 B", GoBytes.format(999));
        assertEquals("1.0 kB", GoBytes.format(1000));
        assertEquals("9.9 kB", GoBytes.format(9949));
        assertEquals("10 kB", GoBytes.format(9950));
        assertEquals("2.1 GB", GoBytes.format(2147483648L));
    }
}
