package io.etcdj.launcher.supervisor;

import io.etcdj.cli.ExitCodes;
import io.etcdj.launcher.LauncherException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Sends one request to the running supervisor and relays its output. */
public final class ControlClient {
    private ControlClient() {}

    /**
     * Sends {@code request} to the supervisor recorded in {@code state} and prints its answer.
     * Returns the exit code the supervisor chose.
     */
    public static int send(ClusterState state, List<String> request, PrintStream out, PrintStream err) {
        if (!ClusterState.RUNNING.equals(state.phase()) || !state.supervisorAlive()) {
            throw new LauncherException("no cluster is running in " + state.baseDir(), ExitCodes.NOT_RUNNING);
        }
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), state.controlPort())) {
            PrintWriter w = new PrintWriter(new OutputStreamWriter(s.getOutputStream(), StandardCharsets.UTF_8), true);
            List<String> words = new ArrayList<>();
            words.add(state.secret());
            words.addAll(request);
            w.println(String.join(ControlProtocol.SEPARATOR, words));
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            String line;
            boolean firstError = true;
            while ((line = in.readLine()) != null) {
                if (line.isEmpty()) {
                    continue;
                }
                char type = line.charAt(0);
                String text = line.substring(1);
                if (type == ControlProtocol.OUT) {
                    out.println(text);
                } else if (type == ControlProtocol.ERR) {
                    err.println(firstError ? "Error: " + text : text);
                    firstError = false;
                } else if (type == ControlProtocol.EXIT) {
                    out.flush();
                    return Integer.parseInt(text.trim());
                }
            }
            throw new LauncherException("the supervisor closed the control connection without an answer");
        } catch (IOException e) {
            throw new LauncherException("cannot reach the supervisor on 127.0.0.1:" + state.controlPort()
                    + ": " + e.getMessage(), ExitCodes.NOT_RUNNING);
        }
    }
}
