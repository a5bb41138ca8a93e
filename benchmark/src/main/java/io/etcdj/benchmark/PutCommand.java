package io.etcdj.benchmark;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.KVGrpc;
import io.etcdj.api.etcdserverpb.PutRequest;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code put}: writes {@code --total} keys of {@code --key-size} bytes with {@code --val-size} values. */
@Command(name = "put", mixinStandardHelpOptions = true, description = "Benchmark put")
final class PutCommand extends WorkloadCommand {
    @Option(names = "--key-size", defaultValue = "8", description = "Key size of put request (default: ${DEFAULT-VALUE})")
    int keySize;

    @Option(names = "--val-size", defaultValue = "256", description = "Value size of put request (default: ${DEFAULT-VALUE})")
    int valSize;

    @Option(names = "--total", defaultValue = "10000", description = "Total number of put requests (default: ${DEFAULT-VALUE})")
    long total;

    @Option(names = "--key-space-size", defaultValue = "1", description = "Maximum possible keys (default: ${DEFAULT-VALUE})")
    long keySpaceSize;

    @Option(names = "--sequential-keys", description = "Use sequential keys")
    boolean sequentialKeys;

    @Override
    String name() {
        return "put";
    }

    @Override
    long total() {
        return total;
    }

    @Override
    RequestSender sender(ChannelPool pool) {
        KeyMaker keys = new KeyMaker(keySize, keySpaceSize, sequentialKeys);
        ByteString value = KeyMaker.randomValue(valSize, new SplittableRandom());
        Stubs<KVGrpc.KVStub> stubs = new Stubs<>(pool, KVGrpc::newStub);
        return (client, seq, done) -> {
            PutRequest request = PutRequest.newBuilder()
                    .setKey(keys.key(keys.keyNumber(seq, ThreadLocalRandom.current())))
                    .setValue(value)
                    .build();
            stubs.forClient(client).put(request, new UnaryObserver<>(done));
        };
    }
}
