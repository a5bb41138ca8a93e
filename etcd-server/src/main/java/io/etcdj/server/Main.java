package io.etcdj.server;

import io.etcdj.client.NettyDefaults;
import io.etcdj.server.config.ConfigException;
import io.etcdj.server.config.FlagParser;
import io.etcdj.server.config.ServerConfig;
import io.etcdj.server.embed.Member;
import io.etcdj.server.log.Log;
import io.etcdj.server.osutil.Interrupts;
import io.etcdj.server.proxy.Subcommands;
import io.etcdj.server.version.Versions;
import java.io.IOException;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/** The etcd command: parses flags as etcd does, runs a member until SIGINT/SIGTERM. */
public final class Main {
    private static final Log LOG = Log.get("etcdmain/etcd");

    private Main() {
    }

    public static void main(String[] args) {
        NettyDefaults.apply();
        eventLoopsPerCore(System.getProperties(), Runtime.getRuntime().availableProcessors());
        System.exit(run(args));
    }

    /**
     * One Netty event loop per core (the client port's and the peer port's, each member's own)
     * instead of Netty's two: a loop runs its calls to the end without blocking, so loops beyond
     * the cores only add threads, each with its stack and buffer caches (1.3-1.8 MB less
     * resident memory for an idle member on two cores), and wake-ups. {@code io.netty.eventLoopThreads} set
     * by the user wins. Must run before Netty's event loop classes are initialised.
     */
    static void eventLoopsPerCore(Properties system, int cores) {
        if (system.getProperty("io.netty.eventLoopThreads") == null) {
            system.setProperty("io.netty.eventLoopThreads", Integer.toString(Math.max(1, cores)));
        }
    }

    static int run(String[] args) {
        if (Subcommands.handles(args)) {
            return Subcommands.run(args);
        }
        FlagParser.Parsed parsed;
        ServerConfig cfg;
        try {
            parsed = FlagParser.parse(args, System.getenv());
            if (parsed.help()) {
                System.out.print(FlagParser.usage());
                return 0;
            }
            if (parsed.version()) {
                System.out.println("etcd Version: " + Versions.SERVER);
                System.out.println("Git SHA: etcdj");
                System.out.println("Java Version: " + System.getProperty("java.version"));
                System.out.println("OS/Arch: " + System.getProperty("os.name").toLowerCase() + "/" + System.getProperty("os.arch"));
                return 0;
            }
            cfg = ServerConfig.from(parsed.values());
        } catch (ConfigException e) {
            System.err.println(e.getMessage());
            if (e.showUsage()) {
                System.err.print(FlagParser.usage());
            }
            return e.exitCode();
        }
        Log.setLevel(cfg.logLevel());
        Log.setConsole(cfg.logConsole());
        try {
            Log.setOutput(cfg.logOutputs(), cfg.options().logRotation());
        } catch (IOException e) {
            System.err.println("etcd: cannot open log output: " + e.getMessage());
            return 1;
        }
        Log.captureJavaLogging();
        // a thread that dies of an exception says so in the member's log format, with its stack trace
        Thread.setDefaultUncaughtExceptionHandler((thread, e) ->
                LOG.error("uncaught exception; the thread stopped", e, "thread", thread.getName()));
        for (String warning : parsed.warnings()) {
            LOG.warn(warning);
        }
        for (String env : parsed.envUnrecognized()) {
            LOG.warn("unrecognized environment variable", "environment-variable", env);
        }
        for (String warning : cfg.options().warnings()) {
            LOG.warn(warning);
        }
        for (String env : parsed.envUsed()) {
            LOG.info("recognized and used environment variable", "variable-name", env.substring(0, env.indexOf('=')),
                    "variable-value", env.substring(env.indexOf('=') + 1));
        }
        CountDownLatch stop = new CountDownLatch(1);
        AtomicBoolean fatal = new AtomicBoolean();
        // SIGINT/SIGTERM: the orderly shutdown, then death by the same signal, as etcd; handled from
        // before the start, so a signal during start-up ends the process by that signal too. Any
        // other end of the JVM (a fatal error's exit, SIGHUP) still closes the member first.
        Interrupts.Shutdown shutdown = Interrupts.handleFromStart(
                signal -> LOG.info("received signal; shutting down", "signal", signal), "shutdown");
        Member member;
        try {
            // the member writes where the flags said the process writes
            member = Member.start(cfg, Log.processSink(), () -> {
                fatal.set(true);
                stop.countDown();
            });
        } catch (Member.Fatal e) {
            return 1;
        } catch (ConfigException | IOException e) {
            LOG.error("failed to start etcd", "error", e.getMessage());
            System.err.println("etcd: " + e.getMessage());
            return 1;
        } catch (RuntimeException | Error e) {
            // an Error too (a native library that will not load, no memory): the process must end,
            // not stay behind with the threads the start left running and no member
            if (fatal.get()) {
                // the member stopped itself while starting and logged its fatal line: nothing to add
                return 1;
            }
            // not a failure start-up expects (those are typed): the stack trace says where it came from
            LOG.error("failed to start etcd", e, "error", String.valueOf(e.getMessage()));
            return 1;
        }
        shutdown.closes(member::close);
        try {
            stop.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // a member removed from the cluster stops its server and exits 0, as etcd's main does when its
        // server stops
        return fatal.get() && !member.wasRemoved() ? 1 : 0;
    }
}
