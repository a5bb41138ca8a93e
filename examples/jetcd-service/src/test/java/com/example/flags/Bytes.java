package com.example.flags;

import io.etcd.jetcd.ByteSequence;
import java.nio.charset.StandardCharsets;

final class Bytes {
    private Bytes() {
    }

    static ByteSequence of(String s) {
        return ByteSequence.from(s, StandardCharsets.UTF_8);
    }

    static String text(ByteSequence b) {
        return b.toString(StandardCharsets.UTF_8);
    }
}
