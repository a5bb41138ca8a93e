package io.etcdj.ctl.it;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Starts two identical single-member etcd servers: the real etcdctl talks to one, ours to the other,
 * so both see the same history and revisions line up. Always stops them and deletes their data.
 */
public final class TwinEtcdExtension implements BeforeAllCallback, AfterAllCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(TwinEtcdExtension.class);

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        RealEtcd a = RealEtcd.start("twin");
        RealEtcd b;
        try {
            b = RealEtcd.start("twin");
        } catch (Exception e) {
            a.close();
            throw e;
        }
        context.getStore(NS).put("twins", new Twins(a, b));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        Twins t = context.getStore(NS).remove("twins", Twins.class);
        if (t != null) {
            t.close();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext p, ExtensionContext e) {
        return p.getParameter().getType() == Twins.class;
    }

    @Override
    public Object resolveParameter(ParameterContext p, ExtensionContext e) {
        return e.getStore(NS).get("twins", Twins.class);
    }

    /** The pair: {@code reference} for /usr/bin/etcdctl, {@code ours} for etcdj's etcdctl. */
    public record Twins(RealEtcd reference, RealEtcd ours) implements AutoCloseable {
        @Override
        public void close() {
            try {
                reference.close();
            } finally {
                ours.close();
            }
        }
    }
}
