package io.etcdj.server.api;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.ResponseHeader;
import io.etcdj.api.etcdserverpb.SnapshotResponse;
import io.etcdj.server.version.Versions;
import io.grpc.stub.ServerCallStreamObserver;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.function.Supplier;

/**
 * Sends one snapshot file to one caller as etcd does: chunks of 32 KiB, each with the bytes
 * still to come, then the file's SHA-256 as the last chunk. Chunks are sent only while gRPC
 * says the call is ready (its outbound buffer is below the flow-control mark) and resumed from
 * the call's on-ready callback, so a slow client holds at most a few chunks of the member's
 * memory, whatever the file's size, and no thread waits for it. The file is deleted when the
 * stream ends, fails or is cancelled.
 *
 * <p>Every callback runs on the call's serial executor (see {@code listen.OffEventLoop}), so
 * the state below is touched by one thread at a time.
 */
final class SnapshotStream {
    static final int CHUNK = 32 * 1024;
    private static final int SHA256_SIZE = 32;

    private final ServerCallStreamObserver<SnapshotResponse> call;
    private final Supplier<ResponseHeader> header;
    private final Path file;
    private final FileChannel in;
    private final long size;
    private final MessageDigest sha;
    private long sent;
    private boolean ended;

    private SnapshotStream(ServerCallStreamObserver<SnapshotResponse> call, Supplier<ResponseHeader> header, Path file,
                           FileChannel in, long size, MessageDigest sha) {
        this.call = call;
        this.header = header;
        this.file = file;
        this.in = in;
        this.size = size;
        this.sha = sha;
    }

    /**
     * Starts sending {@code file}, which the stream owns from now on. Must run inside the
     * service method: gRPC takes the on-ready and on-cancel handlers only before it returns.
     */
    static void start(ServerCallStreamObserver<SnapshotResponse> call, Supplier<ResponseHeader> header, Path file)
            throws IOException {
        FileChannel in;
        try {
            in = FileChannel.open(file, StandardOpenOption.READ);
        } catch (IOException e) {
            Files.deleteIfExists(file);
            throw e;
        }
        SnapshotStream stream;
        try {
            stream = new SnapshotStream(call, header, file, in, in.size(), MessageDigest.getInstance("SHA-256"));
        } catch (IOException | NoSuchAlgorithmException | RuntimeException e) {
            in.close();
            Files.deleteIfExists(file);
            throw e instanceof IOException io ? io : new IOException(e.getMessage(), e);
        }
        call.setOnCancelHandler(stream::end);
        call.setOnReadyHandler(stream::sendWhileReady);
        stream.sendWhileReady();
    }

    private void sendWhileReady() {
        try {
            while (!ended && call.isReady()) {
                if (sent == size) {
                    call.onNext(SnapshotResponse.newBuilder().setHeader(header.get()).setRemainingBytes(0)
                            .setBlob(ByteString.copyFrom(sha.digest())).setVersion(Versions.STORAGE).build());
                    call.onCompleted();
                    end();
                    return;
                }
                ByteBuffer chunk = ByteBuffer.allocate((int) Math.min(CHUNK, size - sent));
                while (chunk.hasRemaining()) {
                    if (in.read(chunk, sent + chunk.position()) < 0) {
                        throw new IOException("snapshot file " + file.getFileName() + " ended at " + (sent + chunk.position())
                                + " of " + size + " bytes");
                    }
                }
                chunk.flip();
                sha.update(chunk.duplicate());
                sent += chunk.remaining();
                call.onNext(SnapshotResponse.newBuilder().setHeader(header.get())
                        .setRemainingBytes(size - sent + SHA256_SIZE).setBlob(ByteString.copyFrom(chunk)).build());
            }
        } catch (IOException | RuntimeException e) {
            if (!ended) {
                try {
                    call.onError(GrpcErrors.toStatus(e));
                } catch (IllegalStateException closed) {
                    // gRPC closed the call itself (its transport failed): nobody left to tell
                }
            }
            end();
        }
    }

    /** Closes and deletes the file; nothing more is sent. */
    private void end() {
        if (ended) {
            return;
        }
        ended = true;
        try {
            in.close();
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // a leftover temporary file in the data dir is harmless; the next start does not read it
        }
    }
}
