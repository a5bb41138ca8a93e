package io.etcdj.server.etcdserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.HashKVResponse;
import io.etcdj.api.etcdserverpb.LeaseGrantRequest;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveRequest;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveResponse;
import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.harness.Eventually;
import io.etcdj.harness.FreePorts;
import io.etcdj.peerpb.LearnerReadyResponse;
import io.etcdj.peerpb.LeaseRenewResponse;
import io.etcdj.peerpb.MembersResponse;
import io.etcdj.raftpb.Message;
import io.etcdj.server.api.Caller;
import io.etcdj.server.config.ServerConfig;
import io.etcdj.server.transport.PeerHandler;
import io.etcdj.server.transport.Transporter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the peer transport hands a member and what the member answers its peers, on a real
 * one-member server whose network is a stand-in: a joining member gets the cluster ID and member
 * list, a lease is renewed on the leader, an unknown lease is reported not found, HashKV is
 * answered at a revision, a learner that is no member is not ready.
 */
class PeerBridgeTest {
    private static final Duration PATIENCE = Duration.ofSeconds(30);
    @TempDir
    Path home;
    private EtcdServer server;
    private PeerHandler bridge;

    @BeforeEach
    void start() throws Exception {
        String peer = "http://127.0.0.1:" + FreePorts.pick();
        ServerConfig cfg = ServerConfig.from(Map.of("name", "solo", "data-dir", home.resolve("solo").toString(),
                "initial-advertise-peer-urls", peer, "listen-peer-urls", peer, "initial-cluster", "solo=" + peer));
        server = EtcdServer.open(cfg, MemberContext.fresh(), () -> { }, handler -> {
            bridge = handler;
            return new NoPeers();
        });
        server.start();
        Eventually.until("the member leads", PATIENCE, server::isLeader);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aJoiningMemberLearnsTheClusterAndItsMembers() {
        MembersResponse r = bridge.members();
        assertEquals(server.clusterId(), r.getClusterId());
        assertEquals(List.of(server.memberId()), r.getMembersList().stream().map(Member::getID).toList());
        assertEquals(List.of(bridge.peerUrls(server.memberId()).get(0)), r.getMembers(0).getPeerURLsList());
        assertEquals(List.of(), bridge.remoteMembers(), "no peer to connect to in a one-member cluster");
        assertFalse(bridge.isRemoved(server.memberId()));
        assertEquals(List.of(), bridge.peerUrls(0x1234), "an unknown member has no URLs to dial");
    }

    @Test
    void theLeaderRenewsALeaseForAFollowerAndReportsAnUnknownOne() throws Exception {
        long id = server.leases().grant(Caller.ANONYMOUS, LeaseGrantRequest.newBuilder().setID(77).setTTL(60).build())
                .get(30, TimeUnit.SECONDS).getID();
        LeaseRenewResponse renewed = bridge.renewLease(id);
        assertFalse(renewed.getNotFound());
        assertEquals(60, renewed.getTtl());
        assertTrue(bridge.renewLease(78).getNotFound(), "a lease the leader does not have");
        LeaseTimeToLiveResponse ttl = bridge.leaseTimeToLive(LeaseTimeToLiveRequest.newBuilder().setID(id).build());
        assertEquals(60, ttl.getGrantedTTL());
    }

    @Test
    void hashKvIsAnsweredAtTheRevisionAPeerAsksFor() throws Exception {
        server.kv().put(Caller.ANONYMOUS,
                PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("k")).setValue(ByteString.copyFromUtf8("v1"))
                .build()).get(30, TimeUnit.SECONDS);
        long rev = server.kv().put(Caller.ANONYMOUS, PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("k"))
                .setValue(ByteString.copyFromUtf8("v2")).build()).get(30, TimeUnit.SECONDS).getHeader().getRevision();
        HashKVResponse before = bridge.hashKv(rev - 1);
        HashKVResponse at = bridge.hashKv(rev);
        assertEquals(rev, at.getHeader().getRevision(), "the header carries the member's revision");
        assertTrue(before.getHash() != at.getHash(), "the hash covers history up to the asked revision only");
        assertEquals(at.getHash(), bridge.hashKv(rev).getHash(), "and is the same when asked again");
    }

    @Test
    void aMemberThatIsNoLearnerOfThisClusterIsNotReady() {
        LearnerReadyResponse r = bridge.learnerReady(0x1234);
        assertFalse(r.getNotLeader());
        assertFalse(r.getReady());
    }

    /** A network without peers: nothing to send to, nobody to ask. */
    private static final class NoPeers implements Transporter {
        @Override
        public void send(List<Message> messages) {
        }

        @Override
        public void removePeer(long id) {
        }

        @Override
        public LeaseRenewResponse renewOnLeader(long leaderId, long lease, long timeoutMillis) {
            throw new IllegalStateException("no peers");
        }

        @Override
        public LeaseTimeToLiveResponse timeToLiveOnLeader(long leaderId, LeaseTimeToLiveRequest r, long timeoutMillis) {
            throw new IllegalStateException("no peers");
        }

        @Override
        public LearnerReadyResponse learnerReadyOnLeader(long leaderId, long member, long timeoutMillis) {
            throw new IllegalStateException("no peers");
        }

        @Override
        public HashKVResponse hashKvOf(long memberId, long revision, long timeoutMillis) {
            throw new IllegalStateException("no peers");
        }

        @Override
        public void close() {
        }
    }
}
