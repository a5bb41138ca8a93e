package io.etcdj.server.embed;

import io.etcdj.server.config.ServerConfig;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The build runs this once to record which classes a member loads while starting, into the
 * AppCDS archive bin/etcd uses (target/app.jsa): a throwaway member on free loopback ports and a
 * temp data dir, started and stopped. Not a user command.
 */
public final class CdsTraining {
    private CdsTraining() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("etcd-cds");
        int client = freePort();
        int peer = freePort();
        try {
            ServerConfig cfg = ServerConfig.from(Map.of(
                    "name", "cds", "data-dir", dir.resolve("data").toString(),
                    "listen-client-urls", "http://127.0.0.1:" + client,
                    "advertise-client-urls", "http://127.0.0.1:" + client,
                    "listen-peer-urls", "http://127.0.0.1:" + peer,
                    "initial-advertise-peer-urls", "http://127.0.0.1:" + peer,
                    "initial-cluster", "cds=http://127.0.0.1:" + peer,
                    "log-level", "error"));
            try (Member m = Member.start(cfg, () -> { })) {
                m.server().status();
            }
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        System.exit(0);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
