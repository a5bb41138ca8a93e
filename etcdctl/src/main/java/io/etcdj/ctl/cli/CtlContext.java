package io.etcdj.ctl.cli;

import io.etcdj.cli.CliException;
import io.etcdj.cli.ExitCodes;
import io.etcdj.client.ClientConfig;
import io.etcdj.client.Endpoint;
import io.etcdj.client.EtcdClient;
import io.etcdj.client.EtcdClientException;
import io.etcdj.client.TlsFilesException;
import io.etcdj.client.TlsOptions;
import io.etcdj.ctl.printer.Out;
import io.etcdj.ctl.printer.Printer;
import io.etcdj.ctl.printer.Printers;
import io.etcdj.server.discovery.SrvLookup;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.naming.NamingException;

/**
 * Everything one command invocation needs: global options, streams, environment, and the client,
 * created on first use and (in the shell) kept across commands.
 */
public final class CtlContext implements AutoCloseable {

    private GlobalOptions options;
    private final Out out;
    private final PrintStream err;
    private final InputStream in;
    private final Map<String, String> env;
    private final Path workDir;
    private EtcdClient client;
    private String clientKey;
    private BufferedReader reader;
    private List<String> commandArgs = List.of();
    private List<String> globalArgs = List.of();
    /** The options the SRV endpoints were looked up for, and what was found. */
    private GlobalOptions srvFor;
    private List<String> srvEndpoints = List.of();

    public CtlContext(GlobalOptions options, PrintStream out, PrintStream err, InputStream in, Map<String, String> env) {
        this(options, out, err, in, env, Path.of(""));
    }

    /** @param workDir what relative file names are relative to; the empty path means the process's directory */
    public CtlContext(GlobalOptions options, PrintStream out, PrintStream err, InputStream in, Map<String, String> env,
            Path workDir) {
        this.workDir = workDir;
        this.options = options;
        this.out = new Out(out);
        this.err = err;
        this.in = in;
        this.env = env;
    }

    public GlobalOptions options() {
        return options;
    }

    /** Replaces the options for the next command (the shell parses each line's globals anew). */
    public void options(GlobalOptions value) {
        this.options = value;
    }

    public Out out() {
        return out;
    }

    public PrintStream err() {
        return err;
    }

    public InputStream in() {
        return in;
    }

    /** One shared line reader over stdin, so commands that read several times do not lose buffered input. */
    public BufferedReader stdinReader() {
        if (reader == null) {
            reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        }
        return reader;
    }

    /** The command's own arguments as typed (after the command path), for commands that split on "--". */
    public List<String> commandArgs() {
        return commandArgs;
    }

    public void commandArgs(List<String> value) {
        this.commandArgs = List.copyOf(value);
    }

    /** The global-flag words of this invocation as typed. */
    public List<String> globalArgs() {
        return globalArgs;
    }

    public void globalArgs(List<String> value) {
        this.globalArgs = List.copyOf(value);
    }

    /**
     * The file a name given on the command line means. Messages keep showing the name as typed; only
     * the file operations use this path (in the warm server it is absolute, in a direct run unchanged).
     */
    public Path file(String name) {
        return workDir.resolve(name);
    }

    public Map<String, String> env() {
        return env;
    }

    public Printer printer() {
        return printer(false);
    }

    public Printer printer(boolean valueOnly) {
        return Printers.forFormat(options.writeOut(), out, err, options.hex(), valueOnly);
    }

    /** Fails early for an unknown -w value, before any request is sent, as etcdctl does. */
    public void checkFormat() {
        printer();
    }

    /** The client for the configured endpoints. */
    public EtcdClient client() {
        return client(endpoints());
    }

    /**
     * The endpoints commands use, as etcdctl's endpointsFromCmd finds them: with --discovery-srv
     * those of the domain's _etcd-client-ssl and _etcd-client SRV records (http ones dropped, with
     * a note, unless --insecure-discovery), else --endpoints; --endpoints also when the records
     * leave none.
     */
    public List<String> endpoints() {
        if (options.discoverySrv().isEmpty()) {
            return options.endpoints();
        }
        if (srvFor != options) {
            srvEndpoints = discoverEndpoints();
            srvFor = options;
        }
        return srvEndpoints.isEmpty() ? options.endpoints() : srvEndpoints;
    }

    private List<String> discoverEndpoints() {
        SrvLookup.Clients found;
        try {
            found = SrvLookup.clients("etcd-client", options.discoverySrv(), options.discoverySrvName());
        } catch (NamingException e) {
            throw new CliException(ExitCodes.ERROR, e.getMessage(), e);
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < found.endpoints().size(); i++) {
            String ep = found.endpoints().get(i);
            if (!options.insecureDiscovery() && ep.startsWith("http://")) {
                // Go's records keep the target's trailing dot, and so does its note
                SrvLookup.Srv srv = found.srvs().get(i);
                err.println("ignoring discovered insecure endpoint \"http://" + srv.target() + ":" + srv.port() + "\"");
                continue;
            }
            out.add(ep);
        }
        return out;
    }

    /** A client for exactly these endpoints (endpoint commands talk to each endpoint on its own). */
    public EtcdClient client(List<String> endpoints) {
        // Reuse the connection only while every setting that shapes it is unchanged (the shell may
        // change flags from one line to the next).
        String key = String.join("|", endpoints.toString(), options.user(), options.password(), options.cacert(),
                options.cert(), options.key(), Boolean.toString(options.insecureSkipTlsVerify()),
                Boolean.toString(options.insecureTransport()), options.dialTimeout().toString(),
                options.commandTimeout().toString(), options.keepAliveTime().toString(),
                options.keepAliveTimeout().toString());
        if (client != null && key.equals(clientKey)) {
            return client;
        }
        if (client != null) {
            client.close();
            client = null;
        }
        client = newClient(endpoints);
        clientKey = key;
        return client;
    }

    /** A client the caller owns and must close. */
    public EtcdClient newClient(List<String> endpoints) {
        try {
            return EtcdClient.connect(config(endpoints));
        } catch (TlsFilesException e) {
            // etcdctl fails this way before it dials: a bad argument, naming the file as it was typed
            throw new CliException(ExitCodes.BAD_ARGS, asTyped(e.getMessage()), e);
        } catch (EtcdClientException e) {
            throw new CliException(ExitCodes.BAD_CONNECTION, e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new CliException(ExitCodes.BAD_CONNECTION, e.getMessage(), e);
        }
    }

    private ClientConfig config(List<String> endpoints) {
        if (endpoints.isEmpty()) {
            throw new CliException(ExitCodes.BAD_CONNECTION, "etcdclient: no available endpoints");
        }
        List<Endpoint> parsed = new ArrayList<>();
        for (String e : endpoints) {
            parsed.add(Endpoint.parse(e));
        }
        ClientConfig.Builder b = ClientConfig.builder()
                .endpoints(parsed)
                .dialTimeout(options.dialTimeout())
                .commandTimeout(options.commandTimeout())
                .keepAliveTime(options.keepAliveTime())
                .keepAliveTimeout(options.keepAliveTimeout())
                .insecureTransport(options.insecureTransport())
                .tls(new TlsOptions(path(options.cacert()), path(options.cert()), path(options.key()),
                        options.insecureSkipTlsVerify()))
                .listener(new WarnLog(err));
        if (!options.discoverySrv().isEmpty() && !options.insecureDiscovery()) {
            // as etcdctl: endpoints found without --insecure-discovery are TLS, verified against the domain
            b.serverName(options.discoverySrv());
        }
        Credentials creds = Credentials.resolve(options, this);
        if (creds != null) {
            b.credentials(creds.user(), creds.password());
        }
        try {
            b.messageLimits(options.maxRequestBytes(), options.maxRecvBytes());
        } catch (IllegalArgumentException e) {
            // clientv3.New refuses it, and etcdctl exits as for a client it cannot create
            throw new CliException(ExitCodes.BAD_CONNECTION, e.getMessage(), e);
        }
        return b.build();
    }

    private Path path(String s) {
        return s == null || s.isEmpty() ? null : file(s);
    }

    /** A message about a TLS file with the resolved names put back as the user typed them. */
    private String asTyped(String message) {
        if (message == null || workDir.toString().isEmpty()) {
            return message;
        }
        String m = message;
        for (String typed : new String[] {options.cacert(), options.cert(), options.key()}) {
            if (typed != null && !typed.isEmpty() && !Path.of(typed).isAbsolute()) {
                m = m.replace(file(typed).toString(), typed);
            }
        }
        return m;
    }

    @Override
    public void close() {
        if (client != null) {
            client.close();
            client = null;
        }
    }
}
