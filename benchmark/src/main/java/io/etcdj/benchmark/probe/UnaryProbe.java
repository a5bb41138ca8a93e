package io.etcdj.benchmark.probe;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.io.PrintStream;

/**
 * Serves the probe's KV methods on 127.0.0.1:PORT until killed, with grpc-java ({@code grpc}) or on
 * Netty's HTTP/2 codec alone ({@code lean}), one event loop per core as a member's client port.
 * Usage: {@code UnaryProbe grpc|lean PORT}.
 */
public final class UnaryProbe {
    private UnaryProbe() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        PrintStream out = System.out;
        if (args.length != 2 || !(args[0].equals("grpc") || args[0].equals("lean"))) {
            System.err.println("usage: UnaryProbe grpc|lean PORT");
            System.exit(2);
        }
        int port;
        try {
            port = Integer.parseInt(args[1]);
        } catch (NumberFormatException e) {
            System.err.println("Error: not a port: " + args[1]);
            System.exit(2);
            return;
        }
        int cores = Runtime.getRuntime().availableProcessors();
        EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("probe-accept"),
                EpollIoHandler.newFactory());
        EventLoopGroup workers = new MultiThreadIoEventLoopGroup(cores, new DefaultThreadFactory("probe-io"),
                EpollIoHandler.newFactory());
        if (args[0].equals("grpc")) {
            GrpcProbeServer.start(port, boss, workers);
        } else {
            LeanProbeServer.start(port, boss, workers);
        }
        out.println("serving " + args[0] + " on 127.0.0.1:" + port);
        out.flush();
        Thread.currentThread().join();
    }
}
