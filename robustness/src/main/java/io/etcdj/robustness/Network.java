package io.etcdj.robustness;

import io.etcdj.launcher.proxy.FaultProxy;
import io.etcdj.launcher.proxy.FaultRules;
import java.io.IOException;
import java.util.List;
import java.util.Set;

/** Where the members' peer links run, and the faults that can be put on them. */
interface Network extends AutoCloseable {
    Set<Faults.Kind> supported();

    void isolate(MemberProcess m) throws IOException, InterruptedException;

    void cut(MemberProcess a, MemberProcess b) throws IOException, InterruptedException;

    void slow(MemberProcess m, int millis) throws IOException, InterruptedException;

    /** Ends every link fault. */
    void heal() throws IOException, InterruptedException;

    @Override
    void close();

    /** Loopback with a fault proxy in front of each member's peer port. */
    final class Proxied implements Network {
        final FaultRules rules = new FaultRules();
        private final List<FaultProxy> proxies;

        Proxied(List<FaultProxy> proxies) {
            this.proxies = proxies;
        }

        @Override
        public Set<Faults.Kind> supported() {
            return Set.of(Faults.Kind.values());
        }

        private void enforce() {
            proxies.forEach(FaultProxy::enforce);
        }

        @Override
        public void isolate(MemberProcess m) {
            rules.partition(m.name);
            enforce();
        }

        @Override
        public void cut(MemberProcess a, MemberProcess b) {
            rules.cut(a.name, b.name);
            enforce();
        }

        @Override
        public void slow(MemberProcess m, int millis) {
            rules.delay(m.name, millis);
        }

        @Override
        public void heal() {
            rules.heal();
            enforce();
        }

        @Override
        public void close() {
            proxies.forEach(FaultProxy::close);
        }
    }
}
