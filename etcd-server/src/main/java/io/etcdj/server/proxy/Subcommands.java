package io.etcdj.server.proxy;

import io.etcdj.server.proxy.grpc.GrpcProxyCommand;
import io.etcdj.server.proxy.tcp.GatewayCommand;
import java.util.Arrays;
import java.util.List;

/**
 * The etcd command's first argument picks a cobra command instead of the member: as etcd's main
 * does for "gateway" and "grpc-proxy". Everything else stays with the member's flag parser.
 */
public final class Subcommands {
    private Subcommands() {
    }

    public static boolean handles(String[] args) {
        return args.length > 0 && (args[0].equals("gateway") || args[0].equals("grpc-proxy"));
    }

    public static int run(String[] args) {
        List<String> rest = Arrays.asList(args).subList(1, args.length);
        CommandGroup group = args[0].equals("gateway")
                ? new CommandGroup("etcd gateway", "gateway related command", new GatewayCommand())
                : new CommandGroup("etcd grpc-proxy", "grpc-proxy related command", new GrpcProxyCommand());
        return group.execute(rest, System.out, System.err);
    }
}
