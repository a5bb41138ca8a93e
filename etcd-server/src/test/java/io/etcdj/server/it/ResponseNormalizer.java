package io.etcdj.server.it;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.util.JsonFormat;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Turns one server's responses into JSON that can be compared with the other server's, field by field.
 *
 * <p>Only what legitimately differs between two independent clusters is rewritten: cluster and member IDs,
 * raft terms and indexes, database sizes, server versions, generated lease IDs (named lease#1, lease#2... in
 * order of first appearance) and revisions, which are shown relative to the revision the scenario started at
 * ({@code base+3}), because the two servers' histories differ before a scenario starts; 127.0.0.1 URLs
 * become {@code <client-url>} or {@code <other-url>}; JSON objects are compared with sorted members. Fields that etcd
 * 3.5/3.6 added and 3.4 does not send are removed (the list is {@link #NEWER_THAN_34}); everything else,
 * including zero values, is compared.
 */
final class ResponseNormalizer {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonFormat.Printer PRINTER =
            JsonFormat.printer().preservingProtoFieldNames().includingDefaultValueFields().omittingInsignificantWhitespace();
    private static final Set<String> REVISIONS = Set.of("revision", "create_revision", "mod_revision", "compact_revision");
    private static final Set<String> LEASE_IDS = Set.of("ID", "id", "lease", "leases");
    private static final Set<String> OPAQUE_COUNTERS = Set.of("raft_term", "raftTerm", "raftIndex", "raftAppliedIndex",
            "dbSize", "dbSizeInUse");
    /**
     * Response fields that etcd 3.4 does not have; the project targets 3.6. StatusResponse.storageVersion,
     * dbSizeQuota and downgradeInfo (3.6), /health "reason" (3.5) and /version "storage" (3.6).
     */
    static final Set<String> NEWER_THAN_34 = Set.of("storageVersion", "dbSizeQuota", "downgradeInfo", "reason", "storage");
    /** Fields carrying a server or cluster version (Status, /version); KeyValue.version is a number. */
    private static final Set<String> VERSION_FIELDS = Set.of("version", "etcdserver", "etcdcluster");
    private static final Pattern SERVER_VERSION = Pattern.compile("\\d+\\.\\d+\\.\\d+");

    /**
     * Gateway error bodies: etcd 3.4/3.5 (grpc-gateway v1) send {error, code, message}, 3.6 (grpc-gateway v2)
     * sends {code, message, details}. Only code and message are compared.
     */
    static final Set<String> GATEWAY_ERROR_EXTRAS = Set.of("error", "details");
    private static final Pattern LOCAL_URL = Pattern.compile("http://127\\.0\\.0\\.1:\\d+");

    private final Map<Long, String> leaseNames = new HashMap<>();
    private final long memberId;
    private final long clusterId;
    private final String clientUrl;
    private long base;

    ResponseNormalizer(long clusterId, long memberId, String clientUrl) {
        this.clusterId = clusterId;
        this.memberId = memberId;
        this.clientUrl = clientUrl;
    }

    /** Starts a scenario: revisions are shown relative to {@code base}, lease names start again. */
    void startScenario(long baseRevision) {
        this.base = baseRevision;
        leaseNames.clear();
    }

    long base() {
        return base;
    }

    String normalize(MessageOrBuilder message) {
        try {
            return normalize(JSON.readTree(PRINTER.print(message)));
        } catch (InvalidProtocolBufferException | JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    String normalize(List<? extends MessageOrBuilder> messages) {
        ArrayNode all = JSON.createArrayNode();
        for (MessageOrBuilder m : messages) {
            try {
                all.add(JSON.readTree(PRINTER.print(m)));
            } catch (InvalidProtocolBufferException | JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }
        return normalize(all);
    }

    /** Normalises a JSON document, e.g. an HTTP gateway body. */
    String normalizeJson(String body) {
        try {
            return normalize(JSON.readTree(body));
        } catch (JsonProcessingException e) {
            return "not JSON: " + body;
        }
    }

    private String normalize(JsonNode tree) {
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(rewrite(tree, ""));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private JsonNode rewrite(JsonNode node, String field) {
        if (node.isObject()) {
            // JSON member order carries no meaning: compare sorted
            Map<String, JsonNode> sorted = new TreeMap<>();
            boolean gatewayError = node.has("code") && node.has("message") && !node.has("header");
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                boolean dropped = NEWER_THAN_34.contains(e.getKey())
                        || gatewayError && GATEWAY_ERROR_EXTRAS.contains(e.getKey());
                if (!dropped) {
                    sorted.put(e.getKey(), rewrite(e.getValue(), e.getKey()));
                }
            }
            ObjectNode out = JSON.createObjectNode();
            sorted.forEach(out::set);
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = JSON.createArrayNode();
            node.forEach(n -> out.add(rewrite(n, field)));
            return out;
        }
        return rewriteValue(node, field);
    }

    private JsonNode rewriteValue(JsonNode node, String field) {
        String text = node.asText();
        if (node.isTextual() && LOCAL_URL.matcher(text).matches()) {
            return TextNode.valueOf(text.equals(clientUrl) ? "<client-url>" : "<other-url>");
        }
        if (VERSION_FIELDS.contains(field) && SERVER_VERSION.matcher(text).matches()) {
            return TextNode.valueOf("<version>");
        }
        if (!text.matches("-?\\d+")) {
            return node;
        }
        long value = Long.parseUnsignedLong(text.startsWith("-") ? text.substring(1) : text) * (text.startsWith("-") ? -1 : 1);
        if (value == 0) {
            return TextNode.valueOf("0");
        }
        if (field.equals("cluster_id")) {
            return TextNode.valueOf(value == clusterId ? "<cluster>" : "<other cluster " + text + ">");
        }
        if (value == memberId && (field.equals("member_id") || field.equals("leader") || field.equals("ID"))) {
            return TextNode.valueOf("<member>");
        }
        if (OPAQUE_COUNTERS.contains(field)) {
            return TextNode.valueOf("<n>");
        }
        if (REVISIONS.contains(field)) {
            long delta = value - base;
            return TextNode.valueOf(delta >= 0 ? "base+" + delta : "base" + delta);
        }
        if (LEASE_IDS.contains(field)) {
            return TextNode.valueOf(leaseNames.computeIfAbsent(value, v -> "lease#" + (leaseNames.size() + 1)));
        }
        return TextNode.valueOf(text);
    }
}
