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

    private DebugLogging() {
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
