package io.etcdj.server.discovery;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.etcdserverpb.WatchCreateRequest;
import io.etcdj.api.etcdserverpb.WatchRequest;
import io.etcdj.api.etcdserverpb.WatchResponse;
import io.etcdj.api.mvccpb.Event;
import io.etcdj.api.mvccpb.KeyValue;
import io.etcdj.client.ClientConfig;
import io.etcdj.client.Endpoint;
import io.etcdj.client.EtcdClient;
import io.etcdj.client.EtcdClientException;
import io.etcdj.client.TlsFilesException;
import io.etcdj.client.TlsOptions;
import io.etcdj.server.log.Log;
import io.grpc.stub.StreamObserver;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * etcd 3.6's v3 discovery: the discovery service is a plain etcd cluster reached with the v3
 * API. Under {@code /_etcd/registry/<token>} the operator puts {@code _config/size}; every
 * member puts {@code members/<member ID in hex>} = {@code name=peerURL,...}, checks the size and
 * the registrations (fails fast when the cluster is already full), then watches
 * {@code members} until {@code size} members registered. The first {@code size} registrations
 * by create revision form the initial cluster. Connection problems are retried with etcd's
 * backoff (2s doubling up to 256s); a missing or bad size and a full cluster end the discovery.
 */
public final class V3Discovery {
    private static final Log LOG = Log.get("v3discovery/discovery.go");
    private static final String PREFIX = "/_etcd/registry";
    private static final int MAX_EXPONENTIAL_RETRIES = 8;

    private final V3DiscoverySettings settings;
    private final String memberKey;
    private final Object[] context;
    private int retries;

    private record Member(String key, String peers, long createRevision) {
    }

    private record Status(List<Member> members, int size, long revision) {
    }

    private V3Discovery(V3DiscoverySettings settings, long memberId) {
        this.settings = settings;
        this.memberKey = membersPrefix(settings.token()) + "/" + Long.toHexString(memberId);
        this.context = new Object[] {"discovery-token", settings.token(),
            "discovery-endpoints", String.join(",", settings.endpoints())};
    }

    /** "/_etcd/registry/<token>/_config/size": the expected cluster size, put by the operator. */
    public static String sizeKey(String token) {
        return PREFIX + "/" + token + "/_config/size";
    }

    /** "/_etcd/registry/<token>/members": the prefix of the members' registrations. */
    public static String membersPrefix(String token) {
        return PREFIX + "/" + token + "/members";
    }

    /**
     * Registers member {@code memberId} with {@code selfConfig} ("name=peerURL,...") and returns
     * the initial cluster ("name=peerURL,...") once the discovery cluster is complete.
     */
    public static String join(V3DiscoverySettings settings, long memberId, String selfConfig) throws DiscoveryException {
        V3Discovery d = new V3Discovery(settings, memberId);
        String cluster = "";
        try (EtcdClient client = EtcdClient.connect(d.clientConfig())) {
            cluster = d.joinCluster(client, selfConfig);
            d.log(false, "discovery joined cluster successfully", "cluster", cluster);
            return cluster;
        } catch (EtcdClientException | TlsFilesException | IllegalArgumentException e) {
            d.log(true, "discovery failed to join cluster", "cluster", cluster, "error", e.getMessage());
            throw new DiscoveryException(e.getMessage());
        } catch (DiscoveryException e) {
            d.log(true, "discovery failed to join cluster", "cluster", cluster, "error", e.getMessage());
            throw e;
        }
    }

    private ClientConfig clientConfig() {
        List<Endpoint> endpoints = new ArrayList<>();
        for (String e : settings.endpoints()) {
            endpoints.add(Endpoint.parse(e));
        }
        ClientConfig.Builder b = ClientConfig.builder().endpoints(endpoints)
                .dialTimeout(settings.dialTimeout())
                .commandTimeout(settings.requestTimeout())
                .keepAliveTime(settings.keepAliveTime())
                .keepAliveTimeout(settings.keepAliveTimeout())
                .insecureTransport(settings.insecureTransport())
                .tls(new TlsOptions(settings.cacert(), settings.cert(), settings.key(), settings.insecureSkipTlsVerify()));
        if (settings.user() != null && !settings.user().isEmpty()) {
            String user = settings.user();
            String password = settings.password() == null ? "" : settings.password();
            int colon = user.indexOf(':');
            if (colon >= 0 && password.isEmpty()) {
                password = user.substring(colon + 1);
                user = user.substring(0, colon);
            }
            b.credentials(user, password);
        }
        return b.build();
    }

    private String joinCluster(EtcdClient client, String selfConfig) throws DiscoveryException {
        checkCluster(client);
        registerSelf(client, selfConfig);
        Status s = checkCluster(client);
        List<Member> members = new ArrayList<>(s.members());
        long revision = s.revision();
        while (members.size() < s.size()) {
            revision = waitPeers(client, members, s.size(), revision);
        }
        return initialCluster(members, s.size());
    }

    /** Size and registrations; fails with "cluster is full" when this member cannot be among the first size. */
    private Status checkCluster(EtcdClient client) throws DiscoveryException {
        while (true) {
            int size;
            try {
                size = clusterSize(client);
            } catch (EtcdClientException e) {
                LOG.warn("failed to get cluster size from discovery service", with("clusterSizeKey",
                        sizeKey(settings.token()), "error", e.getMessage()));
                backOff("cluster status check");
                continue;
            }
            RangeResponse r;
            try {
                r = client.kv(kv -> kv.range(prefixRange(membersPrefix(settings.token()))));
            } catch (EtcdClientException e) {
                LOG.warn("failed to get cluster members from discovery service", with("membersKeyPrefix",
                        membersPrefix(settings.token()), "error", e.getMessage()));
                backOff("cluster status check");
                continue;
            }
            retries = 0;
            List<Member> members = new ArrayList<>();
            for (KeyValue kv : r.getKvsList()) {
                add(members, kv);
            }
            int idx = 0;
            for (Member m : members) {
                if (m.key().equals(memberKey)) {
                    break;
                }
                if (idx >= size - 1) {
                    throw new DiscoveryException("discovery: cluster is full");
                }
                idx++;
            }
            return new Status(members, size, r.getHeader().getRevision());
        }
    }

    private int clusterSize(EtcdClient client) throws DiscoveryException {
        RangeResponse r = client.kv(kv -> kv.range(RangeRequest.newBuilder()
                .setKey(ByteString.copyFromUtf8(sizeKey(settings.token()))).build()));
        if (r.getKvsCount() == 0) {
            throw new DiscoveryException("discovery: size key not found");
        }
        try {
            int size = Integer.parseInt(r.getKvs(0).getValue().toStringUtf8());
            if (size <= 0) {
                throw new NumberFormatException("not positive");
            }
            return size;
        } catch (NumberFormatException e) {
            throw new DiscoveryException("discovery: size key is bad");
        }
    }

    private void registerSelf(EtcdClient client, String selfConfig) throws DiscoveryException {
        while (true) {
            try {
                client.kv(kv -> kv.put(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8(memberKey))
                        .setValue(ByteString.copyFromUtf8(selfConfig)).build()));
                retries = 0;
                LOG.info("register member itself successfully", with("memberKey", memberKey, "memberInfo", selfConfig));
                return;
            } catch (EtcdClientException e) {
                LOG.warn("failed to register members itself to the discovery service",
                        with("memberKey", memberKey, "error", e.getMessage()));
                backOff("register member itself");
            }
        }
    }

    /**
     * Watches the registrations from {@code revision + 1} until {@code size} members are known.
     * When the watch fails (the service went away, or compacted that revision) the registrations
     * are read again and the revision of that read is returned, to watch from next.
     */
    private long waitPeers(EtcdClient client, List<Member> members, int size, long revision) throws DiscoveryException {
        LOG.info("waiting for peers from discovery service", with("clusterSize", size, "found-peers", members.size()));
        BlockingQueue<Object> events = new LinkedBlockingQueue<>();
        StreamObserver<WatchRequest> requests = client.watchAsync().watch(new StreamObserver<>() {
            @Override
            public void onNext(WatchResponse value) {
                events.add(value);
            }

            @Override
            public void onError(Throwable t) {
                events.add(t);
            }

            @Override
            public void onCompleted() {
                events.add(new IllegalStateException("watch closed"));
            }
        });
        RangeRequest range = prefixRange(membersPrefix(settings.token()));
        requests.onNext(WatchRequest.newBuilder().setCreateRequest(WatchCreateRequest.newBuilder()
                .setKey(range.getKey()).setRangeEnd(range.getRangeEnd()).setStartRevision(revision + 1)).build());
        try {
            long seen = revision;
            while (members.size() < size) {
                Object next = events.take();
                String failure = next instanceof Throwable t ? String.valueOf(t.getMessage())
                        : ((WatchResponse) next).getCanceled() ? "watch canceled: " + ((WatchResponse) next).getCancelReason()
                        : null;
                if (failure != null) {
                    LOG.warn("watch on the discovery service failed; reading the registrations again",
                            with("error", failure));
                    backOff("waiting for peers");
                    Status s = checkCluster(client);
                    members.clear();
                    members.addAll(s.members());
                    return s.revision();
                }
                WatchResponse r = (WatchResponse) next;
                seen = Math.max(seen, r.getHeader().getRevision());
                for (Event ev : r.getEventsList()) {
                    add(members, ev.getKv());
                }
            }
            LOG.info("found all needed peers from discovery service", with("clusterSize", size, "found-peers",
                    members.size()));
            return seen;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DiscoveryException("discovery: interrupted");
        } finally {
            requests.onCompleted();
        }
    }

    /** Adds a registration unless it is malformed or known, keeping create-revision order. */
    private void add(List<Member> members, KeyValue kv) {
        String key = kv.getKey().toStringUtf8().trim();
        String value = kv.getValue().toStringUtf8().trim();
        String problem = null;
        if (!key.startsWith(membersPrefix(settings.token()))) {
            problem = "invalid peer registry key";
        } else if (value.indexOf('=') < 0) {
            problem = "invalid peer info returned from discovery service";
        } else if (members.stream().anyMatch(m -> m.key().equals(key))) {
            problem = "found duplicate peer from discovery service";
        }
        if (problem != null) {
            LOG.warn(problem, with("memberKey", key, "memberInfo", value));
            return;
        }
        members.add(new Member(key, value, kv.getCreateRevision()));
        members.sort(Comparator.comparingLong(Member::createRevision));
        LOG.info("found peer from discovery service", with("memberKey", key, "memberInfo", value));
    }

    private static String initialCluster(List<Member> members, int size) throws DiscoveryException {
        List<String> peers = new ArrayList<>();
        for (Member m : members.subList(0, Math.min(size, members.size()))) {
            peers.add(m.peers());
        }
        String cluster = String.join(",", peers);
        for (String part : cluster.split(",")) {
            int eq = part.indexOf('=');
            String url = eq < 0 ? "" : part.substring(eq + 1);
            if (eq <= 0 || !(url.startsWith("http://") || url.startsWith("https://")
                    || url.startsWith("unix://") || url.startsWith("unixs://"))) {
                throw new DiscoveryException("discovery: invalid peer URL");
            }
        }
        return cluster;
    }

    /** etcd's backoff: 2^retries seconds, doubling up to 2^8, then constant. */
    private void backOff(String step) throws DiscoveryException {
        retries++;
        int seconds = 1 << Math.min(retries, MAX_EXPONENTIAL_RETRIES);
        LOG.warn("retry connecting to discovery service", with("reason", step, "backoff",
                seconds >= 60 ? seconds / 60 + "m" + seconds % 60 + "s" : seconds + "s"));
        try {
            Thread.sleep(seconds * 1000L);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DiscoveryException("discovery: interrupted");
        }
    }

    private static RangeRequest prefixRange(String prefix) {
        byte[] end = prefix.getBytes(StandardCharsets.UTF_8);
        end[end.length - 1]++;
        return RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8(prefix)).setRangeEnd(ByteString.copyFrom(end)).build();
    }

    /** The fields of one log line after the discovery-token and discovery-endpoints every line carries. */
    private Object[] with(Object... fields) {
        Object[] all = new Object[context.length + fields.length];
        System.arraycopy(context, 0, all, 0, context.length);
        System.arraycopy(fields, 0, all, context.length, fields.length);
        return all;
    }

    private void log(boolean error, String msg, Object... fields) {
        if (error) {
            LOG.error(msg, with(fields));
        } else {
            LOG.info(msg, with(fields));
        }
    }
}
