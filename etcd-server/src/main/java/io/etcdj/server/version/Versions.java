package io.etcdj.server.version;

/** The versions this member reports: server (Status, /version, --version), cluster and storage. */
public final class Versions {
    public static final String SERVER = "3.6.0";
    public static final String CLUSTER = "3.6.0";
    public static final String STORAGE = "3.6.0";

    private Versions() {
    }

    /** The body of GET /version on the client and the peer URLs (etcd 3.6's version.Versions). */
    public static String json(String clusterVersion) {
        return "{\"etcdserver\":\"" + SERVER + "\",\"etcdcluster\":\"" + clusterVersion + "\",\"storage\":\"" + STORAGE + "\"}";
    }

    /** Whether a "major.minor[.patch]" version is at least {@code major.minor} (false if unreadable). */
    public static boolean atLeast(String version, int major, int minor) {
        String[] p = version.split("\\.");
        try {
            int ma = Integer.parseInt(p[0]);
            int mi = p.length > 1 ? Integer.parseInt(p[1]) : 0;
            return ma > major || (ma == major && mi >= minor);
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
