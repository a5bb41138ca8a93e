package io.etcdj.server.embed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EventLoopBudgetTest {

    private static Map<String, List<URI>> cluster(String... nameUrl) {
        Map<String, List<URI>> m = new LinkedHashMap<>();
        for (int i = 0; i < nameUrl.length; i += 2) {
            m.put(nameUrl[i], List.of(URI.create(nameUrl[i + 1])));
        }
        return m;
    }

    @Test
    void aLocalThreeMemberClusterOnTwoCoresRunsOneLoopPerMember() {
        Map<String, List<URI>> local = cluster("infra1", "http://127.0.0.1:2380", "infra2", "http://127.0.0.1:22380",
                "infra3", "http://127.0.0.1:32380");
        assertEquals(3, EventLoopBudget.coLocated(local, List.of(URI.create("http://127.0.0.1:22380"))));
        assertEquals(1, EventLoopBudget.loopsFor(local, List.of(URI.create("http://127.0.0.1:22380")), 2));
        assertEquals(2, EventLoopBudget.loopsFor(local, List.of(URI.create("http://127.0.0.1:22380")), 8));
    }

    @Test
    void loopbackNamesAndAddressesAreOneHost() {
        Map<String, List<URI>> mixed = cluster("a", "http://localhost:2380", "b", "http://127.0.0.1:12380",
                "c", "https://[::1]:22380");
        assertEquals(3, EventLoopBudget.coLocated(mixed, List.of(URI.create("http://localhost:2380"))));
    }

    @Test
    void aMemberAloneOnItsMachineRunsALoopPerCore() {
        Map<String, List<URI>> spread = cluster("m1", "https://10.0.0.1:2380", "m2", "https://10.0.0.2:2380",
                "m3", "https://10.0.0.3:2380");
        assertEquals(1, EventLoopBudget.coLocated(spread, List.of(URI.create("https://10.0.0.2:2380"))));
        assertEquals(4, EventLoopBudget.loopsFor(spread, List.of(URI.create("https://10.0.0.2:2380")), 4));
    }

    @Test
    void aClusterFoundByDiscoveryOrOneThatDoesNotNameThisHostCountsThisMemberOnly() {
        assertEquals(2, EventLoopBudget.loopsFor(Map.of(), List.of(URI.create("http://127.0.0.1:2380")), 2));
        Map<String, List<URI>> elsewhere = cluster("x", "http://10.1.1.1:2380", "y", "http://10.1.1.2:2380");
        assertEquals(1, EventLoopBudget.coLocated(elsewhere, List.of(URI.create("http://127.0.0.1:2380"))));
    }

    @Test
    void moreLocalMembersThanLoopsStillGetOneEach() {
        Map<String, List<URI>> five = cluster("a", "http://127.0.0.1:1", "b", "http://127.0.0.1:2", "c", "http://127.0.0.1:3",
                "d", "http://127.0.0.1:4", "e", "http://127.0.0.1:5");
        assertEquals(1, EventLoopBudget.loopsFor(five, List.of(URI.create("http://127.0.0.1:3")), 2));
    }
}
