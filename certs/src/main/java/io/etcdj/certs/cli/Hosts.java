package io.etcdj.certs.cli;

import java.util.ArrayList;
import java.util.List;

/** Splits repeatable, comma-separated host flags ("127.0.0.1,localhost"). */
final class Hosts {
    private Hosts() {
    }

    static List<String> split(List<String> values) {
        List<String> hosts = new ArrayList<>();
        if (values == null) {
            return hosts;
        }
        for (String value : values) {
            for (String host : value.split(",")) {
                if (!host.isBlank()) {
                    hosts.add(host.trim());
                }
            }
        }
        return hosts;
    }
}
