package io.etcdj.benchmark;

import io.grpc.Channel;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** One async stub per connection, built before the run; client {@code i} uses stub {@code i % conns}. */
final class Stubs<S> {
    private final List<S> byConnection = new ArrayList<>();

    Stubs(ChannelPool pool, Function<Channel, S> factory) {
        for (int i = 0; i < pool.size(); i++) {
            byConnection.add(factory.apply(pool.forClient(i)));
        }
    }

    S forClient(int client) {
        return byConnection.get(client % byConnection.size());
    }
}
