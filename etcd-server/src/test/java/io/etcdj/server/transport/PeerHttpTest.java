package io.etcdj.server.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.api.etcdserverpb.Member;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The texts of etcd's peer endpoints, as Go's encoders write them. */
class PeerHttpTest {
    @Test
    void membersAreListedByUnsignedIdWithEmptyFieldsLeftOut() {
        Member started = Member.newBuilder().setID(0x8e9e05c52164694dL).setName("infra1")
                .addPeerURLs("http://10.0.0.1:2380").addClientURLs("http://10.0.0.1:2379").build();
        Member unstarted = Member.newBuilder().setID(0x1234).addPeerURLs("http://10.0.0.2:2380").setIsLearner(true).build();
        assertEquals("[{\"id\":4660,\"peerURLs\":[\"http://10.0.0.2:2380\"],\"isLearner\":true},"
                + "{\"id\":10276657743932975437,\"peerURLs\":[\"http://10.0.0.1:2380\"],\"name\":\"infra1\","
                + "\"clientURLs\":[\"http://10.0.0.1:2379\"]}]\n", PeerHttp.membersJson(List.of(started, unstarted)));
        assertEquals("[]\n", PeerHttp.membersJson(List.of()));
    }

    @Test
    void aNameIsEscapedAsJson() {
        Member m = Member.newBuilder().setID(1).setName("a\"b\\c").addPeerURLs("http://h:1").build();
        assertEquals("[{\"id\":1,\"peerURLs\":[\"http://h:1\"],\"name\":\"a\\\"b\\\\c\"}]\n", PeerHttp.membersJson(List.of(m)));
    }

    @Test
    void htmlCharactersAreEscapedAsGosEncoderEscapesThem() {
        Member m = Member.newBuilder().setID(1).setName("<a&b>\u2028").addPeerURLs("http://h:1/?x=1&y=2").build();
        assertEquals("[{\"id\":1,\"peerURLs\":[\"http://h:1/?x=1\\u0026y=2\"],\"name\":\"\\u003ca\\u0026b\\u003e\\u2028\"}]\n",
                PeerHttp.membersJson(List.of(m)));
    }

    @Test
    void timesArePrintedAsGoPrintsRfc3339WithNanoseconds() {
        assertEquals("2026-11-29T11:43:55.02734563Z",
                PeerHttp.goTime(OffsetDateTime.of(2026, 11, 29, 11, 43, 55, 27_345_630, ZoneOffset.UTC)));
        assertEquals("2026-11-29T11:43:55Z", PeerHttp.goTime(OffsetDateTime.of(2026, 11, 29, 11, 43, 55, 0, ZoneOffset.UTC)));
        assertEquals("2026-01-02T03:04:05.5+01:00",
                PeerHttp.goTime(OffsetDateTime.of(2026, 1, 2, 3, 4, 5, 500_000_000, ZoneOffset.ofHours(1))));
        assertEquals("2026-01-02T03:04:05.000000001-05:30",
                PeerHttp.goTime(OffsetDateTime.of(2026, 1, 2, 3, 4, 5, 1, ZoneOffset.ofHoursMinutes(-5, -30))));
    }

    @Test
    void requestLinesAreToldFromHttp2AndRaftStreams() {
        for (String start : new String[] {"GET ", "HEAD", "POST", "PUT ", "DELE", "OPTI"}) {
            assertTrue(PeerHttp.isRequestStart(start.getBytes(StandardCharsets.US_ASCII)), start);
        }
        for (String start : new String[] {"PRI ", "\0etc", "get ", " GET", "\u0016\u0003\u0001\u0002"}) {
            assertFalse(PeerHttp.isRequestStart(start.getBytes(StandardCharsets.ISO_8859_1)), start);
        }
    }
}
