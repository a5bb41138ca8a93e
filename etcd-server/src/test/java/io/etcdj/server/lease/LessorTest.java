package io.etcdj.server.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.server.apply.StoreFixture;
import io.etcdj.server.error.EtcdError;
import io.etcdj.server.error.EtcdException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LessorTest {
    private static final long SECOND = 1_000_000_000L;
    @TempDir
    Path dir;
    StoreFixture f;

    @BeforeEach
    void open() {
        f = new StoreFixture(dir);
    }

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void minimumTtlIsOneAndAHalfElectionTimeoutsRoundedUp() {
        assertEquals(2, Lessor.minTtlSeconds(100, 10));
        assertEquals(3, Lessor.minTtlSeconds(200, 10));
        assertEquals(1, Lessor.minTtlSeconds(10, 10));
    }

    @Test
    void grantRaisesTtlToMinimumAndRefusesDuplicates() {
        f.grant(1, 1);
        assertEquals(2, f.lessor.lookup(1).ttlSeconds());
        assertEquals(EtcdError.LEASE_EXIST, f.grant(1, 10).error().error());
    }

    @Test
    void onlyThePrimaryExpiresAndRenews() {
        f.grant(7, 10);
        f.nanos.addAndGet(60 * SECOND);
        assertTrue(f.lessor.expired(10).isEmpty(), "a follower never expires leases");
        f.lessor.promote(0);
        assertTrue(f.lessor.expired(10).isEmpty(), "promotion gives every lease a full TTL");
        f.nanos.addAndGet(9 * SECOND);
        assertEquals(1, f.lessor.remainingSeconds(f.lessor.lookup(7)));
        assertEquals(10, f.lessor.renew(7));
        f.nanos.addAndGet(9 * SECOND);
        assertTrue(f.lessor.expired(10).isEmpty());
        f.nanos.addAndGet(2 * SECOND);
        assertEquals(List.of(7L), f.lessor.expired(10));
        EtcdException e = assertThrows(EtcdException.class, () -> f.lessor.renew(7));
        assertEquals(EtcdError.LEASE_NOT_FOUND, e.error());
        f.lessor.demote();
        assertTrue(f.lessor.expired(10).isEmpty());
    }

    @Test
    void promotionExtendsByTheGivenMargin() {
        f.grant(3, 5);
        f.lessor.promote(2 * SECOND);
        f.nanos.addAndGet(6 * SECOND);
        assertTrue(f.lessor.expired(10).isEmpty());
        f.nanos.addAndGet(2 * SECOND);
        assertEquals(List.of(3L), f.lessor.expired(10));
    }
}
