package io.etcdj.launcher.cli;

import io.etcdj.launcher.supervisor.ControlClient;
import java.util.ArrayList;
import java.util.List;

/** Sends a request to the running cluster's supervisor on behalf of a command. */
final class Forwarding {
    private Forwarding() {}

    static int send(LauncherCommand root, ClusterOptions cluster, String verb, List<String> args) {
        LauncherContext ctx = root.context();
        List<String> request = new ArrayList<>();
        request.add(verb);
        request.addAll(args);
        return ControlClient.send(cluster.runningState(ctx), request, ctx.out(), ctx.err());
    }
}
