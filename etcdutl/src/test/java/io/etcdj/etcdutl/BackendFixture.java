package io.etcdj.etcdutl;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.server.backend.Backend;
import io.etcdj.server.backend.Bucket;
import io.etcdj.server.backend.Bytes;
import io.etcdj.server.mvcc.MvccStore;
import io.etcdj.server.mvcc.TxnWrite;
import io.etcdj.server.mvcc.WriteBatch;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** Backend files written by the server's own classes, and snapshot files made from them as the Snapshot RPC makes them. */
final class BackendFixture {
    private BackendFixture() {
    }

    /** A backend file with {@code keys} keys written one revision each (revisions 2..keys+1) and one old member. */
    static Path backend(Path dir, int keys) {
        Path db = dir.resolve("source.db");
        try (Backend backend = Backend.open(db, 1L << 30)) {
            MvccStore store = MvccStore.open(backend);
            for (int i = 0; i < keys; i++) {
                WriteBatch wb = store.openWriteBatch();
                TxnWrite txn = wb.beginTxn();
                txn.put(("key" + i).getBytes(StandardCharsets.UTF_8), ByteString.copyFromUtf8("value" + i), 0, false);
                txn.end();
                if (i == 0) {
                    wb.backendTx().put(Bucket.MEMBERS, Bytes.longBytes(42), Member.newBuilder().setID(42)
                            .setName("old").addPeerURLs("http://127.0.0.1:1").build().toByteArray());
                    wb.backendTx().put(Bucket.MEMBERS_REMOVED, Bytes.longBytes(7), new byte[0]);
                }
                wb.commit(100 + i, 5);
            }
        }
        // what the Snapshot RPC streams is a consistent compact copy, without LMDB's lock file
        deleteLockFile(db);
        return db;
    }

    static void deleteLockFile(Path db) {
        try {
            Files.deleteIfExists(db.resolveSibling(db.getFileName() + "-lock"));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The backend file followed by its SHA-256, as the Snapshot RPC streams it. */
    static Path snapshotOf(Path db, Path target) throws IOException {
        byte[] data = Files.readAllBytes(db);
        Files.write(target, data);
        Files.write(target, sha256(data), StandardOpenOption.APPEND);
        return target;
    }

    static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
