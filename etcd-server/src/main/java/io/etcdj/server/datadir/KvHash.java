package io.etcdj.server.datadir;

import io.etcdj.server.mvcc.MvccStore;
import io.etcdj.server.mvcc.ReadView;
import java.nio.file.Path;

/**
 * The KV history hash of a backend or snapshot file ({@code etcdutl hashkv}), computed by the
 * same code as the HashKV RPC ({@link ReadView#hashKv}), so it equals what a member serving this
 * file would answer.
 *
 * @param hash            etcd's HashKV: CRC-32C over the key bucket up to hashRevision (see
 *                        {@link ReadView#hashKv} for which revisions at or below the compaction count)
 * @param hashRevision    the revision hashed up to
 * @param compactRevision the compaction revision of the file
 */
public record KvHash(long hash, long hashRevision, long compactRevision) {

    /** Hashes up to {@code rev} (0: the latest revision). */
    public static KvHash of(Path file, long rev) throws DataDirException {
        SnapshotFile snapshot = SnapshotFile.of(file, "open");
        try (ScratchBackend scratch = ScratchBackend.copyOf(snapshot)) {
            MvccStore store = MvccStore.open(scratch.backend());
            if (rev > store.currentRevision()) {
                throw new DataDirException("mvcc: required revision is a future revision");
            }
            if (rev > 0 && rev < store.compactRevision()) {
                throw new DataDirException("mvcc: required revision has been compacted");
            }
            try (ReadView view = store.openRead()) {
                long[] hashAndRev = view.hashKv(rev);
                return new KvHash(hashAndRev[0], hashAndRev[1], store.compactRevision());
            }
        }
    }
}
