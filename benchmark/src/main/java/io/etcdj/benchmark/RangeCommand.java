package io.etcdj.benchmark;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.KVGrpc;
import io.etcdj.api.etcdserverpb.RangeRequest;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code range KEY [END]}: reads the same key or range {@code --total} times. */
@Command(name = "range", mixinStandardHelpOptions = true, description = "Benchmark range")
final class RangeCommand extends WorkloadCommand {
    @Parameters(index = "0", paramLabel = "KEY", description = "Key to read")
    String key;

    @Parameters(index = "1", arity = "0..1", paramLabel = "END", description = "Range end (exclusive)")
    String end;

    @Option(names = "--consistency", defaultValue = "l",
            description = "Linearizable(l) or Serializable(s) (default: ${DEFAULT-VALUE})")
    String consistency;

    @Option(names = "--total", defaultValue = "10000", description = "Total number of range requests (default: ${DEFAULT-VALUE})")
    long total;

    @Override
    String name() {
        return serializable() ? "range-s" : "range-l";
    }

    @Override
    long total() {
        return total;
    }

    private boolean serializable() {
        return consistency.toLowerCase(Locale.ROOT).equals("s");
    }

    @Override
    RequestSender sender(ChannelPool pool) {
        String c = consistency.toLowerCase(Locale.ROOT);
        if (!c.equals("l") && !c.equals("s")) {
            throw new BenchmarkException("consistency must be l or s, got \"" + consistency + "\"");
        }
        RangeRequest.Builder b = RangeRequest.newBuilder()
                .setKey(ByteString.copyFromUtf8(key))
                .setSerializable(serializable());
        if (end != null) {
            b.setRangeEnd(ByteString.copyFromUtf8(end));
        }
        RangeRequest request = b.build();
        Stubs<KVGrpc.KVStub> stubs = new Stubs<>(pool, KVGrpc::newStub);
        return (client, seq, done) -> stubs.forClient(client).range(request, new UnaryObserver<>(done));
    }
}
