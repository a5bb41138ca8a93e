package io.etcdj.launcher.cli;

import io.etcdj.launcher.spec.ClusterSpec;
import io.etcdj.launcher.spec.MemberSpec;
import java.util.List;

/**
 * Member flags a cluster started with the dashboard gets: {@code --metrics=extensive}, without
 * which etcd exports no request latency histogram and the put latency chart stays empty. A
 * {@code --metrics} flag in the cluster file wins.
 */
final class DashboardFlags {
    static final String EXTENSIVE_METRICS = "--metrics=extensive";

    private DashboardFlags() {}

    static ClusterSpec apply(ClusterSpec spec) {
        boolean chosen = spec.flags().stream().anyMatch(DashboardFlags::isMetricsFlag)
                || spec.members().stream().map(MemberSpec::flags).flatMap(List::stream).anyMatch(DashboardFlags::isMetricsFlag);
        return chosen ? spec : spec.withDefaultFlags(List.of(EXTENSIVE_METRICS));
    }

    private static boolean isMetricsFlag(String flag) {
        return flag.equals("--metrics") || flag.startsWith("--metrics=") || flag.equals("-metrics") || flag.startsWith("-metrics=");
    }
}
