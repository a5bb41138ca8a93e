package io.etcdj.server.discovery;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Hashtable;
import java.util.List;
import javax.naming.NameNotFoundException;
import javax.naming.NamingEnumeration;
import javax.naming.NamingException;
import javax.naming.directory.Attribute;
import javax.naming.directory.Attributes;
import javax.naming.directory.DirContext;
import javax.naming.directory.InitialDirContext;

/**
 * DNS SRV lookups for --discovery-srv, through the JDK's own DNS provider (no extra library).
 * The system resolver is used unless the JVM property {@code etcdj.dns.server} names another
 * ("127.0.0.1:5353"), which is how tests point a process at their own DNS server.
 */
public final class SrvLookup {
    /** One SRV answer; the target keeps DNS's trailing dot, as Go's net.SRV does. */
    public record Srv(String target, int port, int priority, int weight) {
        /** The target without its trailing dot, for dialing and URLs. */
        public String host() {
            return target.endsWith(".") ? target.substring(0, target.length() - 1) : target;
        }
    }

    /** The endpoints etcd's srv.GetClient finds: https ones first, then http, with their records. */
    public record Clients(List<String> endpoints, List<Srv> srvs) {
    }

    private SrvLookup() {
    }

    /** "_service[-ssl][-name]._tcp.domain" as etcd builds it. */
    public static String serviceName(String service, String serviceName, boolean ssl) {
        String s = service + (ssl ? "-ssl" : "");
        if (serviceName != null && !serviceName.isEmpty()) {
            s = s + "-" + serviceName;
        }
        return s;
    }

    /**
     * etcd's srv.GetClient: looks up the -ssl and the plain client records; fails only if both
     * lookups fail, with both errors.
     */
    public static Clients clients(String service, String domain, String serviceName) throws NamingException {
        List<String> endpoints = new ArrayList<>();
        List<Srv> srvs = new ArrayList<>();
        String errHttps = null;
        String errHttp = null;
        try {
            for (Srv s : lookup(serviceName(service, serviceName, true), domain)) {
                endpoints.add("https://" + s.host() + ":" + s.port());
                srvs.add(s);
            }
        } catch (NamingException e) {
            errHttps = goLookupError(serviceName(service, serviceName, true), domain, e);
        }
        try {
            for (Srv s : lookup(serviceName(service, serviceName, false), domain)) {
                endpoints.add("http://" + s.host() + ":" + s.port());
                srvs.add(s);
            }
        } catch (NamingException e) {
            errHttp = goLookupError(serviceName(service, serviceName, false), domain, e);
        }
        if (errHttps != null && errHttp != null) {
            throw new NamingException("dns lookup errors: " + errHttps + " and " + errHttp);
        }
        return new Clients(endpoints, srvs);
    }

    /** The SRV records of _service._tcp.domain. */
    public static List<Srv> lookup(String service, String domain) throws NamingException {
        String name = "_" + service + "._tcp." + domain;
        Hashtable<String, String> env = new Hashtable<>();
        env.put(DirContext.INITIAL_CONTEXT_FACTORY, "com.sun.jndi.dns.DnsContextFactory");
        String server = System.getProperty("etcdj.dns.server", "");
        env.put(DirContext.PROVIDER_URL, server.isEmpty() ? "dns:" : "dns://" + server);
        env.put("com.sun.jndi.dns.timeout.initial", "1000");
        env.put("com.sun.jndi.dns.timeout.retries", "2");
        DirContext ctx = new InitialDirContext(env);
        try {
            Attributes attrs = ctx.getAttributes(name, new String[] {"SRV"});
            Attribute srv = attrs.get("SRV");
            List<Srv> out = new ArrayList<>();
            if (srv == null) {
                throw new NameNotFoundException("no SRV records for " + name);
            }
            NamingEnumeration<?> all = srv.getAll();
            while (all.hasMore()) {
                String[] f = all.next().toString().trim().split("\\s+");
                out.add(new Srv(f[3], Integer.parseInt(f[2]), Integer.parseInt(f[0]), Integer.parseInt(f[1])));
            }
            // Go sorts by priority and shuffles by weight; a stable priority order is enough here
            out.sort(Comparator.comparingInt(Srv::priority));
            return out;
        } finally {
            ctx.close();
        }
    }

    /**
     * The addresses of {@code host}: itself for an IP literal; otherwise the system resolver,
     * and the A records of the {@code etcdj.dns.server} server when that property is set.
     */
    public static String resolveHost(String host) throws UnknownHostException {
        if (host.matches("[0-9.]+") || host.contains(":")) {
            return InetAddress.getByName(host).getHostAddress();
        }
        String server = System.getProperty("etcdj.dns.server", "");
        if (!server.isEmpty()) {
            try {
                Hashtable<String, String> env = new Hashtable<>();
                env.put(DirContext.INITIAL_CONTEXT_FACTORY, "com.sun.jndi.dns.DnsContextFactory");
                env.put(DirContext.PROVIDER_URL, "dns://" + server);
                DirContext ctx = new InitialDirContext(env);
                try {
                    Attribute a = ctx.getAttributes(host, new String[] {"A"}).get("A");
                    if (a != null && a.size() > 0) {
                        return a.get(0).toString();
                    }
                } finally {
                    ctx.close();
                }
            } catch (NamingException e) {
                // not known there: the system resolver decides
            }
        }
        return InetAddress.getByName(host).getHostAddress();
    }

    /** Go's resolver error text: "lookup _etcd-client._tcp.example.com on 10.0.0.2:53: no such host". */
    private static String goLookupError(String service, String domain, NamingException e) {
        return "lookup _" + service + "._tcp." + domain + " on " + resolverAddress() + ": no such host";
    }

    /** The DNS server asked, as Go names it: etcdj.dns.server, else the first resolv.conf nameserver on port 53. */
    private static String resolverAddress() {
        String server = System.getProperty("etcdj.dns.server", "");
        if (!server.isEmpty()) {
            return server;
        }
        try {
            for (String line : Files.readAllLines(Path.of("/etc/resolv.conf"))) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 1 && f[0].equals("nameserver")) {
                    return (f[1].contains(":") ? "[" + f[1] + "]" : f[1]) + ":53";
                }
            }
        } catch (IOException e) {
            // no resolv.conf: Go's default below
        }
        return "127.0.0.1:53";
    }
}
