package io.etcdj.server.datadir;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.etcdj.api.etcdserverpb.Member;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * Our member records as etcd's members bucket holds them. The expected texts are what a real
 * etcd 3.4 wrote for the same members (a started member, an unstarted learner), and Go's
 * encoding/json rules for the rest (HTML-safe escapes, omitted empty fields).
 */
class EtcdMemberRecordTest {

    private static String[] etcd(Member m) throws DataDirException {
        Map.Entry<byte[], byte[]> e = EtcdSchema.memberToEtcd(m.toByteArray());
        return new String[] {new String(e.getKey(), StandardCharsets.US_ASCII), new String(e.getValue(), StandardCharsets.UTF_8)};
    }

    @Test
    void aStartedMemberAsEtcdWritesIt() throws Exception {
        String[] r = etcd(Member.newBuilder().setID(6678329523359872433L).setName("r1")
                .addPeerURLs("http://127.0.0.1:24802").addClientURLs("http://127.0.0.1:24792").build());
        assertEquals("5cae315174de75b1", r[0]);
        assertEquals("{\"id\":6678329523359872433,\"peerURLs\":[\"http://127.0.0.1:24802\"],\"name\":\"r1\","
                + "\"clientURLs\":[\"http://127.0.0.1:24792\"]}", r[1]);
    }

    @Test
    void anUnstartedLearnerHasNoNameNorClientUrls() throws Exception {
        String[] r = etcd(Member.newBuilder().setID(0x25107691638faffL).addPeerURLs("http://127.0.0.1:1").setIsLearner(true).build());
        // the key is the ID in hex without leading zeros, as types.ID.String() writes it
        assertEquals("25107691638faff", r[0]);
        assertEquals("{\"id\":166922809115212543,\"peerURLs\":[\"http://127.0.0.1:1\"],\"isLearner\":true}", r[1]);
    }

    @Test
    void idsAboveLongMaxAreUnsignedAndNamesEscapedAsGoEscapesThem() throws Exception {
        String[] r = etcd(Member.newBuilder().setID(-1L).setName("a<b>&\"c\"\n").build());
        assertEquals("ffffffffffffffff", r[0]);
        assertEquals("{\"id\":18446744073709551615,\"peerURLs\":null,\"name\":\"a\\u003cb\\u003e\\u0026\\\"c\\\"\\n\"}", r[1]);
    }

    @Test
    void aCorruptedRecordIsRefusedByName() {
        DataDirException e = Assertions.assertThrows(DataDirException.class,
                () -> EtcdSchema.memberToEtcd(new byte[] {(byte) 0xff, 0x01}));
        Assertions.assertTrue(e.getMessage().startsWith("members bucket: corrupted member record"), e.getMessage());
    }
}
