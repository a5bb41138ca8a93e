package io.etcdj.launcher.spec;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns an etcd command line from a Procfile into a {@link MemberSpec}. The flags the launcher
 * manages itself (name, URLs, data dir, initial cluster) are lifted out; every other word is kept,
 * in order, as an extra flag.
 */
final class EtcdCommandParser {
    /** A command, parsed: the member, and the cluster token it names (if any). */
    record Parsed(MemberSpec member, Optional<String> token) {}

    private static final List<String> MANAGED = List.of("name", "data-dir", "initial-cluster-token",
            "listen-client-urls", "advertise-client-urls", "listen-peer-urls",
            "initial-advertise-peer-urls", "initial-cluster", "initial-cluster-state");

    private EtcdCommandParser() {}

    static Parsed parse(String process, String command, int line, Map<String, String> env)
            throws ParseError {
        List<String> words;
        try {
            words = ShellWords.split(command, env);
        } catch (IllegalArgumentException e) {
            throw new ParseError(e.getMessage());
        }
        if (words.isEmpty()) {
            throw new ParseError("empty command for process \"" + process + "\"");
        }
        String program = words.get(0);
        if (!Path.of(program).getFileName().toString().equals("etcd")) {
            throw new ParseError("process \"" + process + "\" runs \"" + program
                    + "\"; the launcher runs etcd members only (the command must start with etcd or bin/etcd)");
        }
        if (words.size() > 1 && !words.get(1).startsWith("-")) {
            throw new ParseError("process \"" + process + "\" runs \"etcd " + words.get(1)
                    + "\"; only etcd members are supported, not etcd subcommands");
        }
        String name = process;
        String dataDir = null;
        String token = null;
        List<URI> listenClient = List.of();
        List<URI> advertiseClient = List.of();
        List<URI> listenPeer = List.of();
        List<URI> advertisePeer = List.of();
        List<String> extra = new ArrayList<>();
        for (int i = 1; i < words.size(); i++) {
            String word = words.get(i);
            String flag = flagName(word);
            if (flag == null || !MANAGED.contains(flag)) {
                extra.add(word);
                continue;
            }
            String value;
            int eq = word.indexOf('=');
            if (eq >= 0) {
                value = word.substring(eq + 1);
            } else if (i + 1 < words.size()) {
                value = words.get(++i);
            } else {
                throw new ParseError("flag --" + flag + " needs a value");
            }
            switch (flag) {
                case "name" -> name = value;
                case "data-dir" -> dataDir = value;
                case "initial-cluster-token" -> token = value;
                case "listen-client-urls" -> listenClient = Urls.parseList(value, flag);
                case "advertise-client-urls" -> advertiseClient = Urls.parseList(value, flag);
                case "listen-peer-urls" -> listenPeer = Urls.parseList(value, flag);
                case "initial-advertise-peer-urls" -> advertisePeer = Urls.parseList(value, flag);
                default -> { } // initial-cluster and its state: the launcher computes them from all members
            }
        }
        if (advertiseClient.isEmpty()) {
            advertiseClient = listenClient;
        }
        if (listenClient.isEmpty()) {
            listenClient = advertiseClient;
        }
        if (advertisePeer.isEmpty()) {
            advertisePeer = listenPeer;
        }
        if (listenPeer.isEmpty()) {
            listenPeer = advertisePeer;
        }
        if (advertiseClient.isEmpty()) {
            throw new ParseError("process \"" + process + "\" has no --listen-client-urls or --advertise-client-urls");
        }
        if (advertisePeer.isEmpty()) {
            throw new ParseError("process \"" + process + "\" has no --listen-peer-urls or --initial-advertise-peer-urls");
        }
        MemberSpec member = new MemberSpec(process, name, listenClient, advertiseClient, listenPeer,
                advertisePeer, Optional.ofNullable(dataDir).map(Path::of), extra, Map.of(), "new", line);
        return new Parsed(member, Optional.ofNullable(token));
    }

    /** The flag's name without dashes or value, or null when the word is not a flag. */
    private static String flagName(String word) {
        if (!word.startsWith("-")) {
            return null;
        }
        String body = word.startsWith("--") ? word.substring(2) : word.substring(1);
        int eq = body.indexOf('=');
        return eq >= 0 ? body.substring(0, eq) : body;
    }

    /** A problem in one command; the caller adds the file and line. */
    static final class ParseError extends Exception {
        ParseError(String message) {
            super(message);
        }
    }
}
