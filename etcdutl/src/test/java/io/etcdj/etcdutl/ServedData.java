package io.etcdj.etcdutl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a server serves, read with the real etcdctl, so that two servers (one restored from the
 * other's snapshot) can be compared as a user would compare them: every readable revision's keys
 * (with their create and mod revisions, versions, leases), every lease with its TTL and keys, the
 * compaction.
 */
final class ServedData {
    static final ObjectMapper JSON = new ObjectMapper();
    private static final String COMPACTED = "etcdserver: mvcc: required revision has been compacted";

    /** What one server served: kvs per readable revision, the compaction, leases with their TTL and keys. */
    record History(long compacted, long latest, Map<Long, JsonNode> kvsByRev, Map<String, JsonNode> leases) {
    }

    private ServedData() {
    }

    /** Every readable revision's keys (compaction to latest) and every lease, as the real etcdctl prints them. */
    static History history(String ep, long compacted) throws Exception {
        long latest = revision(ep);
        Map<Long, JsonNode> kvs = new TreeMap<>();
        for (long rev = compacted; rev <= latest; rev++) {
            JsonNode r = JSON.readTree(Tool.etcdctl(ep, "get", "", "--prefix", "--rev=" + rev, "-w", "json").ok().out());
            kvs.put(rev, r.path("kvs"));
        }
        Map<String, JsonNode> leases = new LinkedHashMap<>();
        Set<String> ids = new TreeSet<>(Arrays.asList(Tool.etcdctl(ep, "lease", "list").ok().out().strip().split("\n")));
        ids.removeIf(line -> line.startsWith("found"));
        for (String id : ids) {
            leases.put(id, JSON.readTree(Tool.etcdctl(ep, "lease", "timetolive", id, "--keys", "-w", "json").ok().out()));
        }
        return new History(compacted, latest, kvs, leases);
    }

    static void assertSameHistory(History expected, History actual) {
        assertEquals(expected.latest(), actual.latest(), "latest revision");
        assertEquals(expected.kvsByRev().keySet(), actual.kvsByRev().keySet());
        for (long rev : expected.kvsByRev().keySet()) {
            assertEquals(expected.kvsByRev().get(rev), actual.kvsByRev().get(rev), "get --rev=" + rev);
        }
        assertEquals(expected.leases().keySet(), actual.leases().keySet(), "leases");
        for (var e : expected.leases().entrySet()) {
            JsonNode want = e.getValue();
            JsonNode got = actual.leases().get(e.getKey());
            assertEquals(want.get("granted-ttl"), got.get("granted-ttl"), "granted TTL of " + e.getKey());
            // etcd lists a lease's keys from a Go map, in no fixed order
            assertEquals(keySet(want), keySet(got), "keys of lease " + e.getKey());
            long left = got.get("ttl").asLong();
            assertTrue(left > 0 && left <= got.get("granted-ttl").asLong(), "remaining TTL " + left);
        }
    }

    static Set<String> keySet(JsonNode timeToLive) {
        Set<String> keys = new TreeSet<>();
        timeToLive.path("keys").forEach(k -> keys.add(k.asText()));
        return keys;
    }

    static void assertCompactedBelow(String ep, long compacted) throws Exception {
        Tool.Result r = Tool.etcdctl(ep, "get", "k1", "--rev=" + (compacted - 1));
        assertTrue(r.err().contains(COMPACTED), r.err());
    }

    /** The server's current revision (the header of a get). */
    static long revision(String ep) throws IOException, InterruptedException {
        return JSON.readTree(Tool.etcdctl(ep, "get", "x", "-w", "json").ok().out()).get("header").get("revision").asLong();
    }
}
