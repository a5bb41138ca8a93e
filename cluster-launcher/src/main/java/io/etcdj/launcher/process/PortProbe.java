package io.etcdj.launcher.process;

import io.etcdj.launcher.LauncherException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/** Finds ports that are already taken before any member starts, so the error names the culprit. */
public final class PortProbe {
    /** A port the cluster needs and who needs it, e.g. "client URL of infra1". */
    public record Claim(URI url, String owner) {}

    private PortProbe() {}

    public static void requireFree(List<Claim> claims) {
        List<String> busy = new ArrayList<>();
        for (Claim c : claims) {
            if (!isFree(c.url().getHost(), c.url().getPort())) {
                busy.add("port " + c.url().getPort() + " (" + c.owner() + ", " + c.url() + ") is already in use");
            }
        }
        if (!busy.isEmpty()) {
            throw new LauncherException(String.join("\n", busy));
        }
    }

    public static boolean isFree(String host, int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getByName(host), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** A port the operating system reports free on 127.0.0.1 right now. */
    public static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new LauncherException("cannot find a free port on 127.0.0.1: " + e.getMessage());
        }
    }
}
