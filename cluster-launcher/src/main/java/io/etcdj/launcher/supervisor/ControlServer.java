package io.etcdj.launcher.supervisor;

import io.etcdj.cli.ExitCodes;
import io.etcdj.launcher.LauncherException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Accepts control requests on 127.0.0.1 and runs them through a {@link Supervisor}. Requests
 * are served one at a time on a single named thread, which keeps member operations ordered.
 */
public final class ControlServer implements AutoCloseable {
    /** Runs one request; output lines go to {@code reply}. */
    public interface Handler {
        int handle(List<String> request, Reply reply);
    }

    /** Where a request's output goes. */
    public interface Reply {
        void out(String line);
    }

    private final Handler handler;
    private final String secret = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
    private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "control-server");
        t.setDaemon(true);
        return t;
    });
    private ServerSocket server;

    public ControlServer(Handler handler) {
        this.handler = handler;
    }

    public void start() {
        try {
            server = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new LauncherException("cannot open the control port on 127.0.0.1: " + e.getMessage());
        }
        executor.execute(this::serve);
    }

    public int port() {
        return server.getLocalPort();
    }

    public String secret() {
        return secret;
    }

    private void serve() {
        while (!server.isClosed()) {
            try (Socket s = server.accept()) {
                handle(s);
            } catch (IOException e) {
                if (server.isClosed()) {
                    return;
                }
            }
        }
    }

    private void handle(Socket s) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
        PrintWriter out = new PrintWriter(new OutputStreamWriter(s.getOutputStream(), StandardCharsets.UTF_8), true);
        String line = in.readLine();
        if (line == null) {
            return;
        }
        List<String> words = Arrays.asList(line.split(ControlProtocol.SEPARATOR, -1));
        if (words.isEmpty() || !words.get(0).equals(secret)) {
            out.println(ControlProtocol.ERR + "control request refused: wrong secret");
            out.println(ControlProtocol.EXIT + Integer.toString(ExitCodes.ERROR));
            return;
        }
        Reply reply = text -> text.lines().forEach(l -> out.println(ControlProtocol.OUT + l));
        int code;
        try {
            code = handler.handle(words.subList(1, words.size()), reply);
        } catch (LauncherException e) {
            e.getMessage().lines().forEach(l -> out.println(ControlProtocol.ERR + l));
            code = e.exitCode();
        } catch (RuntimeException e) {
            out.println(ControlProtocol.ERR + "supervisor error: " + e);
            code = ExitCodes.ERROR;
        }
        out.println(ControlProtocol.EXIT + Integer.toString(code));
    }

    @Override
    public void close() {
        try {
            if (server != null) {
                server.close();
            }
        } catch (IOException ignored) {
            // closing anyway
        }
        executor.shutdown();
    }
}
