package io.etcdj.etcdutl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class HumanBytesTest {
    @Test
    void matchesEtcdOutputs() {
        // figures etcd printed for real snapshot files (20480 bytes rounds half to even: 20.5 -> 20)
        assertEquals("20 kB", HumanBytes.format(20480));
        assertEquals("25 kB", HumanBytes.format(24576));
        assertEquals("2.1 MB", HumanBytes.format(2125824));
    }

    @Test
    void smallAndBoundaryValues() {
        assertEquals("0 B", HumanBytes.format(0));
        assertEquals("9 B", HumanBytes.format(9));
        assertEquals("10 B", HumanBytes.format(10));
        assertEquals("999 B", HumanBytes.format(999));
        assertEquals("1.0 kB", HumanBytes.format(1000));
        assertEquals("9.9 kB", HumanBytes.format(9949));
        assertEquals("10 kB", HumanBytes.format(9950));
        assertEquals("2.1 GB", HumanBytes.format(2147483648L));
    }
}
