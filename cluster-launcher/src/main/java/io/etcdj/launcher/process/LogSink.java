package io.etcdj.launcher.process;

/** Receives the output lines of members (and the launcher's own notices about them). */
public interface LogSink {
    LogSink NONE = (process, text) -> { };

    void line(String process, String text);
}
