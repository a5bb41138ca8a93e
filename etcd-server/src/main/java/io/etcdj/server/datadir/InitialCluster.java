package io.etcdj.server.datadir;

import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.server.membership.MemberIds;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * The cluster a restore creates, from --initial-cluster, --initial-cluster-token, --name and
 * --initial-advertise-peer-urls, checked as etcd checks them before it writes anything. Member
 * and cluster IDs come from {@link MemberIds}, so they equal those of a member bootstrapped from
 * the same flags (ours or etcd's).
 */
public final class InitialCluster {
    private final Map<String, List<String>> urlsByName;
    private final String token;
    private final String localName;

    private InitialCluster(Map<String, List<String>> urlsByName, String token, String localName) {
        this.urlsByName = urlsByName;
        this.token = token;
        this.localName = localName;
    }

    /** Parses and verifies the flags; the messages are etcd's. */
    public static InitialCluster parse(String initialCluster, String token, String name, String advertisePeerUrls)
            throws DataDirException {
        List<String> advertised = new ArrayList<>();
        for (String u : advertisePeerUrls.split(",", -1)) {
            advertised.add(checkUrl(u.trim()));
        }
        Map<String, List<String>> map = new TreeMap<>();
        for (String part : initialCluster.split(",", -1)) {
            int eq = part.indexOf('=');
            String member = eq < 0 ? part : part.substring(0, eq);
            String url = eq < 0 ? "" : part.substring(eq + 1);
            map.computeIfAbsent(member.trim(), k -> new ArrayList<>()).add(checkUrl(url.trim()));
        }
        InitialCluster c = new InitialCluster(map, token, name);
        c.verify(advertised);
        return c;
    }

    private static String checkUrl(String s) throws DataDirException {
        URI u;
        try {
            u = new URI(s);
        } catch (URISyntaxException e) {
            throw new DataDirException("parse \"" + s + "\": " + e.getReason());
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme();
        if (!Set.of("http", "https", "unix", "unixs").contains(scheme)) {
            throw new DataDirException("URL scheme must be http, https, unix, or unixs: " + s);
        }
        if (u.getRawPath() != null && !u.getRawPath().isEmpty()) {
            throw new DataDirException("URL must not contain a path: " + s);
        }
        if (u.getHost() == null || u.getPort() < 0) {
            throw new DataDirException("URL address does not have the form \"host:port\": " + s);
        }
        return s;
    }

    private void verify(List<String> advertised) throws DataDirException {
        Set<String> seen = new HashSet<>();
        for (List<String> urls : urlsByName.values()) {
            for (String u : urls) {
                if (!seen.add(u)) {
                    throw new DataDirException("initial cluster " + describe(urlsByName) + " has duplicate url");
                }
            }
        }
        List<String> mine = urlsByName.get(localName);
        if (mine == null) {
            throw new DataDirException("couldn't find local name \"" + localName + "\" in the initial cluster configuration");
        }
        List<String> ap = advertised.stream().sorted().toList();
        List<String> ic = mine.stream().sorted().toList();
        if (ap.equals(ic)) {
            return;
        }
        List<String> missingFromAdvertised = ic.stream().filter(u -> !ap.contains(u)).map(u -> localName + "=" + u).toList();
        if (!missingFromAdvertised.isEmpty()) {
            throw new DataDirException("--initial-cluster has " + String.join(",", missingFromAdvertised)
                    + " but missing from --initial-advertise-peer-urls=" + String.join(",", ap) + " (" + mismatch(ap, ic) + ")");
        }
        List<String> missingFromCluster = ap.stream().filter(u -> !ic.contains(u)).toList();
        throw new DataDirException("--initial-advertise-peer-urls has " + String.join(",", missingFromCluster)
                + " but missing from --initial-cluster=" + describe(Map.of(localName, ap)));
    }

    /** Why two URL lists differ, worded as etcd words it. */
    private static String mismatch(List<String> a, List<String> b) {
        if (a.size() != b.size()) {
            return "len(" + quoted(a) + ") != len(" + quoted(b) + ")";
        }
        for (int i = 0; i < a.size(); i++) {
            if (!a.get(i).equals(b.get(i))) {
                return "resolved urls: \"" + a.get(i) + "\" != \"" + b.get(i) + "\"";
            }
        }
        return "";
    }

    private static String quoted(List<String> l) {
        StringJoiner j = new StringJoiner(" ", "[", "]");
        l.forEach(s -> j.add("\"" + s + "\""));
        return j.toString();
    }

    private static String describe(Map<String, List<String>> m) {
        StringJoiner j = new StringJoiner(",");
        new TreeMap<>(m).forEach((name, urls) -> urls.forEach(u -> j.add(name + "=" + u)));
        return j.toString();
    }

    /** Every member, in ID order (unsigned), with its name and peer URLs. */
    public List<Member> members() {
        List<Member> out = new ArrayList<>();
        urlsByName.forEach((name, urls) -> out.add(Member.newBuilder()
                .setID(MemberIds.memberId(urls, token, null)).setName(name).addAllPeerURLs(urls).build()));
        out.sort((x, y) -> Long.compareUnsigned(x.getID(), y.getID()));
        return out;
    }

    public long localMemberId() {
        return MemberIds.memberId(urlsByName.get(localName), token, null);
    }

    public long clusterId() {
        return MemberIds.clusterId(members().stream().map(Member::getID).toList());
    }
}
