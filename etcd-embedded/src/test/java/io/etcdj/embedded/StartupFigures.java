package io.etcdj.embedded;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Measures, in one JVM, how long a 1- and a 3-member in-process cluster take from {@code start()}
 * to serving (the first start of each is cold: classes loaded and compiled then), and the JVM's
 * resident memory with the last 3-member cluster up. Run: {@code scripts/embedded-startup.sh}.
 */
public final class StartupFigures {
    private StartupFigures() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        for (int members : new int[] {1, 3}) {
            List<Long> millis = new ArrayList<>();
            for (int i = 0; i < rounds; i++) {
                long t0 = System.nanoTime();
                EtcdCluster c = EtcdCluster.builder().members(members).build().start();
                c.waitForLeader(Duration.ofSeconds(30));
                millis.add((System.nanoTime() - t0) / 1_000_000);
                if (members == 3 && i == rounds - 1) {
                    System.out.printf("rss with 3 members up: %d MB%n", rssKb() / 1024);
                }
                c.close();
            }
            List<Long> warm = new ArrayList<>(millis.subList(1, millis.size()));
            warm.sort(null);
            System.out.printf("%d member(s): first start %d ms, warm median %d ms (min %d, max %d, %d starts)%n", members,
                    millis.get(0), warm.get(warm.size() / 2), warm.get(0), warm.get(warm.size() - 1), warm.size());
        }
    }

    private static long rssKb() throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }
}
