package io.etcdj.server.datadir;

import io.etcdj.server.bbolt.BboltException;
import io.etcdj.server.bbolt.BboltReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * {@code snapshot status} of a real etcd's file, computed as etcd computes it on its bbolt file:
 * a CRC-32C over every bucket in name order (the name, then each key and value), the number of
 * entries, the main revision of the last key in the key bucket, the database size (bbolt's
 * tx.Size, pages in use) and the storage version the file records (etcd 3.6 writes it; 3.4 and
 * 3.5 files have none, shown empty as etcd shows it).
 */
final class EtcdStatus {
    private EtcdStatus() {
    }

    static SnapshotStatus of(SnapshotFile source) throws DataDirException {
        try (BboltReader reader = EtcdImport.open(source)) {
            CRC32C crc = new CRC32C();
            long[] keys = {0};
            long[] revision = {0};
            String[] version = {""};
            reader.<DataDirException>forEachTopLevel((name, header, bucket) -> {
                crc.update(name);
                if (!bucket) {
                    throw new DataDirException("cannot get hash of bucket " + new String(name, StandardCharsets.UTF_8));
                }
                String n = new String(name, StandardCharsets.UTF_8);
                reader.forEachInBucket(header, (k, v, nested) -> {
                    crc.update(k);
                    crc.update(v);
                    keys[0]++;
                    if (n.equals(EtcdSchema.KEY) && k.length >= 8) {
                        revision[0] = ByteBuffer.wrap(k).getLong(0);
                    }
                    if (n.equals(EtcdSchema.META) && new String(k, StandardCharsets.US_ASCII).equals(EtcdSchema.STORAGE_VERSION)) {
                        version[0] = new String(v, StandardCharsets.US_ASCII);
                    }
                });
            });
            return new SnapshotStatus(crc.getValue(), revision[0], keys[0], reader.size(), version[0]);
        } catch (BboltException e) {
            throw EtcdImport.fail(source, e);
        }
    }
}
