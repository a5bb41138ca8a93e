package io.etcdj.launcher.spec;

/** A cluster file that cannot be used, with the line the problem is on (0 when not tied to a line). */
public final class ClusterFileException extends Exception {
    private final String source;
    private final int line;
    private final String reason;

    public ClusterFileException(String source, int line, String reason) {
        super(line > 0 ? source + ":" + line + ": " + reason : source + ": " + reason);
        this.source = source;
        this.line = line;
        this.reason = reason;
    }

    public String source() {
        return source;
    }

    public int line() {
        return line;
    }

    public String reason() {
        return reason;
    }
}
