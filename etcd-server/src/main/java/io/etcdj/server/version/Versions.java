package io.etcdj.server.version;

/** The versions this member reports: server (Status, /version, --version), cluster and storage. */
public final class Versions {
    public static final String SERVER = "3.6.0";
    public static final String CLUSTER = "3.6.0";
    public static final String STORAGE = "3.6.0";

    private Versions() {
    }
}
