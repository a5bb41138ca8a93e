package io.etcdj.server.datadir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import io.etcdj.api.etcdserverpb.AuthUserAddRequest;
import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.raftpb.ConfChange;
import io.etcdj.raftpb.ConfChangeType;
import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.EntryType;
import io.etcdj.server.auth.Passwords;
import io.etcdj.serverpb.InternalRaftRequest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * etcd 3.4's log entries in our encoding. The etcd bytes are built from etcd's own .proto field
 * numbers (raft_internal.proto: ID = 1, v2 = 2, put = 4, auth_user_add = 1100, header = 100;
 * etcdserver.proto's v2 Request: ID = 1, Method = 2, Path = 3, Val = 4) and its JSON texts.
 */
class EtcdEntriesTest {

    private interface Fields {
        void write(CodedOutputStream out) throws IOException;
    }

    private static byte[] message(Fields fields) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        fields.write(out);
        out.flush();
        return bytes.toByteArray();
    }

    private static Entry normal(byte[] data) {
        return Entry.newBuilder().setIndex(7).setTerm(3).setType(EntryType.EntryNormal).setData(ByteString.copyFrom(data)).build();
    }

    private static InternalRaftRequest ours(Entry converted) throws Exception {
        assertEquals(7, converted.getIndex());
        assertEquals(3, converted.getTerm());
        return InternalRaftRequest.parseFrom(converted.getData());
    }

    @Test
    void aPutKeepsItsRequestAndTheUserOfItsHeader() throws Exception {
        PutRequest put = PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("k")).setValue(ByteString.copyFromUtf8("v"))
                .setLease(0x1234).build();
        byte[] header = message(o -> {
            o.writeUInt64(1, 99);
            o.writeString(2, "alice");
            o.writeUInt64(3, 5);
        });
        byte[] etcd = message(o -> {
            o.writeUInt64(1, 42);
            o.writeByteArray(4, put.toByteArray());
            o.writeByteArray(100, header);
        });
        InternalRaftRequest r = ours(EtcdEntries.convert(normal(etcd)));
        assertEquals(put, r.getPut());
        assertEquals("alice", r.getHeader().getUsername());
        assertEquals(5, r.getHeader().getAuthRevision());
    }

    @Test
    void etcd34sV2PublishBecomesOurPublishBareOrWrapped() throws Exception {
        byte[] v2 = message(o -> {
            o.writeUInt64(1, 77);
            o.writeString(2, "PUT");
            o.writeString(3, "/0/members/58f3bddc312390ae/attributes");
            o.writeString(4, "{\"name\":\"e1\",\"clientURLs\":[\"http://127.0.0.1:2379\"]}");
        });
        byte[] wrapped = message(o -> {
            o.writeUInt64(1, 78);
            o.writeByteArray(2, v2);
        });
        for (byte[] etcd : List.of(v2, wrapped)) {
            InternalRaftRequest r = ours(EtcdEntries.convert(normal(etcd)));
            assertEquals(0x58f3bddc312390aeL, r.getPublish().getMemberId());
            assertEquals("e1", r.getPublish().getName());
            assertEquals(List.of("http://127.0.0.1:2379"), r.getPublish().getClientUrlsList());
            assertEquals(r.getPublish(), EtcdEntries.publishedAttributes(normal(etcd)));
        }
    }

    @Test
    void otherV2RequestsAndReadsBecomeEmptyEntries() throws Exception {
        byte[] sync = message(o -> {
            o.writeUInt64(1, 5);
            o.writeString(2, "SYNC");
            o.writeInt64(9, 1_700_000_000L);
        });
        byte[] range = message(o -> o.writeByteArray(3, message(r -> r.writeByteArray(1, "k".getBytes(StandardCharsets.UTF_8)))));
        for (byte[] etcd : List.of(sync, range)) {
            Entry e = EtcdEntries.convert(normal(etcd));
            assertTrue(e.getData().isEmpty());
            assertEquals(7, e.getIndex());
        }
    }

    @Test
    void aUserAddLoggedWithItsPasswordInClearIsLoggedHashed() throws Exception {
        byte[] etcd = message(o -> o.writeByteArray(1100,
                AuthUserAddRequest.newBuilder().setName("root").setPassword("rootpw").build().toByteArray()));
        AuthUserAddRequest add = ours(EtcdEntries.convert(normal(etcd))).getUserAdd();
        assertEquals("root", add.getName());
        assertEquals("", add.getPassword());
        assertTrue(Passwords.matches(add.getHashedPassword().getBytes(StandardCharsets.UTF_8), "rootpw"));
        assertFalse(Passwords.matches(add.getHashedPassword().getBytes(StandardCharsets.UTF_8), "other"));
    }

    @Test
    void aRequestThisServerDoesNotKnowIsRefusedByIndexAndField() throws Exception {
        byte[] etcd = message(o -> o.writeByteArray(1300, new byte[] {8, 1}));
        DataDirException e = assertThrows(DataDirException.class, () -> EtcdEntries.convert(normal(etcd)));
        assertEquals("etcd WAL entry 7 comes after what member/snap/db records as applied and carries a request this "
                + "server does not know (InternalRaftRequest field 1300): not migrated", e.getMessage());
    }

    @Test
    void aConfChangesJsonMemberBecomesOurMember() throws Exception {
        // as etcd 3.4's restore logs it: json.Marshal of membership.Member
        String json = "{\"id\":6409675448093216942,\"peerURLs\":[\"http://127.0.0.1:35062\"],\"name\":\"r1\"}";
        ConfChange cc = ConfChange.newBuilder().setType(ConfChangeType.ConfChangeAddNode).setNodeId(6409675448093216942L)
                .setContext(ByteString.copyFromUtf8(json)).build();
        Entry e = Entry.newBuilder().setIndex(1).setTerm(1).setType(EntryType.EntryConfChange).setData(cc.toByteString()).build();
        ConfChange converted = ConfChange.parseFrom(EtcdEntries.convert(e).getData());
        assertEquals(Member.newBuilder().setID(6409675448093216942L).addPeerURLs("http://127.0.0.1:35062").setName("r1").build(),
                Member.parseFrom(converted.getContext()));
        assertEquals(cc.getNodeId(), converted.getNodeId());
    }
}
