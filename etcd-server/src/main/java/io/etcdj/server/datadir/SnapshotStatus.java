package io.etcdj.server.datadir;

import io.etcdj.server.backend.Bucket;
import io.etcdj.server.backend.Bytes;
import io.etcdj.server.backend.MetaKeys;
import io.etcdj.server.backend.ReadTx;
import io.etcdj.server.version.Versions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.zip.CRC32C;

/**
 * What {@code snapshot status} reports about a snapshot or backend file, computed as etcd
 * computes it: a CRC-32C over every bucket (in name order: the name, then each key and value),
 * the number of entries in all buckets, the latest revision and the file size.
 *
 * @param hash      CRC-32C over all buckets
 * @param revision  the latest revision: the newest in the key bucket, or the compaction mark if
 *                  a restore bumped the revision past it
 * @param totalKeys entries in all buckets (not only user keys)
 * @param totalSize size of the backend file in bytes (without the SHA-256 trailer)
 * @param version   the storage version of the files
 */
public record SnapshotStatus(long hash, long revision, long totalKeys, long totalSize, String version) {

    /** Reads {@code file}; a missing file is reported as etcd does ("stat FILE: ..."). */
    public static SnapshotStatus of(Path file) throws DataDirException {
        SnapshotFile snapshot = SnapshotFile.of(file, "stat");
        if (snapshot.isBbolt()) {
            return EtcdStatus.of(snapshot);
        }
        try (ScratchBackend scratch = ScratchBackend.copyOf(snapshot);
             ReadTx tx = scratch.backend().beginRead()) {
            CRC32C crc = new CRC32C();
            long[] keys = {0};
            long[] lastRev = {0};
            Bucket[] byName = Bucket.values();
            Arrays.sort(byName, Comparator.comparing(Bucket::dbName));
            for (Bucket bucket : byName) {
                crc.update(bucket.dbName().getBytes(StandardCharsets.US_ASCII));
                tx.forEach(bucket, null, null, (k, v) -> {
                    crc.update(k);
                    crc.update(v);
                    keys[0]++;
                    if (bucket == Bucket.KEY && k.length >= 8) {
                        lastRev[0] = Bytes.toLong(k);
                    }
                    return true;
                });
            }
            byte[] compacted = tx.get(Bucket.META, MetaKeys.FINISHED_COMPACT_REV);
            long revision = Math.max(lastRev[0], compacted == null ? 0 : Bytes.toLong(compacted));
            return new SnapshotStatus(crc.getValue(), revision, keys[0], scratch.dbSize(), Versions.STORAGE);
        }
    }
}
