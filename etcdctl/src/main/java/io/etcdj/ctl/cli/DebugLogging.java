package io.etcdj.ctl.cli;

import java.io.PrintStream;
import java.util.logging.ConsoleHandler;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import java.util.logging.StreamHandler;

/** {@code --debug}: routes gRPC's and Netty's client-side logging to stderr at debug level. */
final class DebugLogging {

    private static final String[] LOGGERS = {"io.grpc", "io.netty"};
    /** Held so the level set on it stays (java.util.logging keeps loggers only weakly). */
    private static final Logger GRPC = Logger.getLogger("io.grpc");

    private DebugLogging() {
    }

    /**
     * Without --debug, gRPC's informational lines stay off stderr (e.g. "Received trailers on closed
     * stream" after a response over --max-recv-bytes): etcdctl's Go client prints none of them.
     */
    static void quiet() {
        if (GRPC.getLevel() == null) {
            GRPC.setLevel(Level.WARNING);
        }
    }

    static void enable(PrintStream err) {
        Handler handler = new StreamHandler(err, new SimpleFormatter()) {
            @Override
            public synchronized void publish(LogRecord record) {
                super.publish(record);
                flush();
            }
        };
        handler.setLevel(Level.FINE);
        for (String name : LOGGERS) {
            Logger logger = Logger.getLogger(name);
            logger.setLevel(Level.FINE);
            for (Handler h : logger.getHandlers()) {
                if (h instanceof ConsoleHandler) {
                    logger.removeHandler(h);
                }
            }
            logger.addHandler(handler);
        }
    }
}
