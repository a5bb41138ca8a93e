package io.etcdj.server.datadir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.server.backend.WriteTx;
import io.etcdj.server.membership.Membership;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * etcd 3.4's membership records, which are JSON: a member as a conf change's context carries it
 * ({@code {"id":N,"peerURLs":[..],"name":..,"clientURLs":[..],"isLearner":..}}), the published
 * attributes ({@code {"name":..,"clientURLs":[..]}}), and the v2 store of a Raft snapshot, where
 * {@code /0/members/<hex id>/raftAttributes} and {@code .../attributes} hold the two halves and
 * {@code /0/removed_members/<hex id>} marks a removed ID.
 */
final class EtcdMembers {
    private static final ObjectMapper JSON = new ObjectMapper();

    private EtcdMembers() {
    }

    /** A member from its JSON (a conf change's context). */
    static Member member(byte[] json) throws DataDirException {
        JsonNode n = parse(json, "member");
        if (!n.path("id").canConvertToExactIntegral()) {
            throw new DataDirException("etcd member record without an id: " + n);
        }
        Member.Builder b = Member.newBuilder().setID(n.get("id").bigIntegerValue().longValue())
                .setIsLearner(n.path("isLearner").asBoolean(false)).setName(n.path("name").asText(""));
        b.addAllPeerURLs(strings(n.path("peerURLs"))).addAllClientURLs(strings(n.path("clientURLs")));
        return b.build();
    }

    /** A member's published name and client URLs. */
    record Attributes(String name, List<String> clientUrls) {
        static Attributes of(JsonNode n) {
            return new Attributes(n.path("name").asText(""), strings(n.path("clientURLs")));
        }
    }

    static Attributes attributes(byte[] json) throws DataDirException {
        return Attributes.of(parse(json, "member attributes"));
    }

    /** Writes the members and removed IDs of a v2 store snapshot (etcd's {@code store.Save} JSON) into {@code membership}. */
    static void loadV2Store(byte[] json, Membership membership, WriteTx tx) throws DataDirException {
        JsonNode cluster = parse(json, "v2 store snapshot").path("Root").path("Children").path("0").path("Children");
        Iterator<Map.Entry<String, JsonNode>> members = cluster.path("members").path("Children").fields();
        while (members.hasNext()) {
            Map.Entry<String, JsonNode> m = members.next();
            JsonNode parts = m.getValue().path("Children");
            JsonNode raft = parse(bytes(parts.path("raftAttributes").path("Value")), "raftAttributes of " + m.getKey());
            Attributes attrs = parts.has("attributes")
                    ? Attributes.of(parse(bytes(parts.path("attributes").path("Value")), "attributes of " + m.getKey()))
                    : new Attributes("", List.of());
            membership.add(tx, Member.newBuilder().setID(hexId(m.getKey())).addAllPeerURLs(strings(raft.path("peerURLs")))
                    .setIsLearner(raft.path("isLearner").asBoolean(false)).setName(attrs.name())
                    .addAllClientURLs(attrs.clientUrls()).build());
        }
        Iterator<String> removed = cluster.path("removed_members").path("Children").fieldNames();
        while (removed.hasNext()) {
            membership.remove(tx, hexId(removed.next()));
        }
    }

    /** A member ID as etcd's v2 store paths write it ({@code types.ID.String()}: hex, no leading zeros). */
    static long hexId(String hex) throws DataDirException {
        try {
            return Long.parseUnsignedLong(hex, 16);
        } catch (NumberFormatException e) {
            throw new DataDirException("etcd v2 store: \"" + hex + "\" is not a member ID");
        }
    }

    private static byte[] bytes(JsonNode value) {
        return value.asText("").getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(v -> out.add(v.asText()));
        return out;
    }

    private static JsonNode parse(byte[] json, String what) throws DataDirException {
        try {
            JsonNode n = JSON.readTree(json);
            if (n == null || !n.isObject()) {
                throw new DataDirException("etcd " + what + " is not a JSON object");
            }
            return n;
        } catch (IOException e) {
            throw new DataDirException("etcd " + what + " is not valid JSON: " + e.getMessage(), e);
        }
    }
}
