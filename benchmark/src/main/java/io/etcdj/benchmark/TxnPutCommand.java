package io.etcdj.benchmark;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.KVGrpc;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.RequestOp;
import io.etcdj.api.etcdserverpb.TxnRequest;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code txn-put}: {@code --total} transactions without compares, each putting {@code --txn-ops}
 * distinct keys (consecutive key numbers from a random start, wrapping in the key space).
 */
@Command(name = "txn-put", mixinStandardHelpOptions = true, description = "Benchmark txn-put")
final class TxnPutCommand extends WorkloadCommand {
    @Option(names = "--key-size", defaultValue = "8", description = "Key size of txn put (default: ${DEFAULT-VALUE})")
    int keySize;

    @Option(names = "--val-size", defaultValue = "8", description = "Value size of txn put (default: ${DEFAULT-VALUE})")
    int valSize;

    @Option(names = "--txn-ops", defaultValue = "1", description = "Number of puts per txn (default: ${DEFAULT-VALUE})")
    int txnOps;

    @Option(names = "--total", defaultValue = "10000", description = "Total number of txn requests (default: ${DEFAULT-VALUE})")
    long total;

    @Option(names = "--key-space-size", defaultValue = "1", description = "Maximum possible keys (default: ${DEFAULT-VALUE})")
    long keySpaceSize;

    @Override
    String name() {
        return "txn-put";
    }

    @Override
    long total() {
        return total;
    }

    @Override
    RequestSender sender(ChannelPool pool) {
        if (txnOps < 1) {
            throw new BenchmarkException("--txn-ops must be at least 1");
        }
        if (keySpaceSize < txnOps) {
            // etcd rejects a txn that puts the same key twice, so each txn needs txn-ops distinct keys.
            throw new BenchmarkException("--key-space-size (" + keySpaceSize + ") must be at least --txn-ops (" + txnOps + ")");
        }
        KeyMaker keys = new KeyMaker(keySize, keySpaceSize, false);
        ByteString value = KeyMaker.randomValue(valSize, new SplittableRandom());
        Stubs<KVGrpc.KVStub> stubs = new Stubs<>(pool, KVGrpc::newStub);
        return (client, seq, done) -> {
            long first = keys.keyNumber(seq, ThreadLocalRandom.current());
            TxnRequest.Builder txn = TxnRequest.newBuilder();
            for (int op = 0; op < txnOps; op++) {
                PutRequest put = PutRequest.newBuilder()
                        .setKey(keys.key((first + op) % keySpaceSize))
                        .setValue(value)
                        .build();
                txn.addSuccess(RequestOp.newBuilder().setRequestPut(put));
            }
            stubs.forClient(client).txn(txn.build(), new UnaryObserver<>(done));
        };
    }
}
