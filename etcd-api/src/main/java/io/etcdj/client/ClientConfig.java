package io.etcdj.client;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Immutable client settings. Defaults are etcdctl's: 2s dial timeout, 5s command timeout, 2s/6s
 * keep-alive, no TLS, no auth.
 */
public final class ClientConfig {

    public static final Duration DEFAULT_DIAL_TIMEOUT = Duration.ofSeconds(2);
    public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(5);
    public static final Duration DEFAULT_KEEPALIVE_TIME = Duration.ofSeconds(2);
    public static final Duration DEFAULT_KEEPALIVE_TIMEOUT = Duration.ofSeconds(6);

    private final List<Endpoint> endpoints;
    private final Duration dialTimeout;
    private final Duration commandTimeout;
    private final Duration keepAliveTime;
    private final Duration keepAliveTimeout;
    private final TlsOptions tls;
    private final boolean insecureTransport;
    private final String user;
    private final String password;
    private final String serverName;
    private final CallListener listener;
    private final int maxRequestBytes;
    private final int maxRecvBytes;

    private ClientConfig(Builder b) {
        this.endpoints = List.copyOf(b.endpoints);
        this.dialTimeout = b.dialTimeout;
        this.commandTimeout = b.commandTimeout;
        this.keepAliveTime = b.keepAliveTime;
        this.keepAliveTimeout = b.keepAliveTimeout;
        this.tls = b.tls;
        this.insecureTransport = b.insecureTransport;
        this.user = b.user;
        this.password = b.password;
        this.serverName = b.serverName;
        this.listener = b.listener;
        this.maxRequestBytes = b.maxRequestBytes;
        this.maxRecvBytes = b.maxRecvBytes;
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.endpoints = endpoints;
        b.dialTimeout = dialTimeout;
        b.commandTimeout = commandTimeout;
        b.keepAliveTime = keepAliveTime;
        b.keepAliveTimeout = keepAliveTimeout;
        b.tls = tls;
        b.insecureTransport = insecureTransport;
        b.user = user;
        b.password = password;
        b.serverName = serverName;
        b.listener = listener;
        b.maxRequestBytes = maxRequestBytes;
        b.maxRecvBytes = maxRecvBytes;
        return b;
    }

    public List<Endpoint> endpoints() {
        return endpoints;
    }

    public Duration dialTimeout() {
        return dialTimeout;
    }

    public Duration commandTimeout() {
        return commandTimeout;
    }

    public Duration keepAliveTime() {
        return keepAliveTime;
    }

    public Duration keepAliveTimeout() {
        return keepAliveTimeout;
    }

    public TlsOptions tls() {
        return tls;
    }

    /**
     * True when connections must use TLS: a TLS option was given, an https endpoint, plaintext was
     * refused, or a server name to verify was set.
     */
    public boolean useTls() {
        return tls.requested() || !insecureTransport || serverName != null || endpoints.stream().anyMatch(Endpoint::secure);
    }

    /** The name server certificates are verified against instead of the endpoint's host (etcdctl's SRV domain); or null. */
    public String serverName() {
        return serverName;
    }

    /**
     * The largest request the client sends, in bytes (etcdctl 3.6's --max-request-bytes; the Go
     * client's MaxCallSendMsgSize, 2 MiB when 0 or less).
     */
    public int maxRequestBytes() {
        return maxRequestBytes <= 0 ? 2 * 1024 * 1024 : maxRequestBytes;
    }

    /** The largest response the client takes, in bytes (--max-recv-bytes; math.MaxInt32 when 0 or less). */
    public int maxRecvBytes() {
        return maxRecvBytes <= 0 ? Integer.MAX_VALUE : maxRecvBytes;
    }

    public String user() {
        return user;
    }

    public String password() {
        return password;
    }

    public CallListener listener() {
        return listener;
    }

    /** Builder with etcdctl's defaults. */
    public static final class Builder {
        private List<Endpoint> endpoints = List.of(Endpoint.parse("127.0.0.1:2379"));
        private Duration dialTimeout = DEFAULT_DIAL_TIMEOUT;
        private Duration commandTimeout = DEFAULT_COMMAND_TIMEOUT;
        private Duration keepAliveTime = DEFAULT_KEEPALIVE_TIME;
        private Duration keepAliveTimeout = DEFAULT_KEEPALIVE_TIMEOUT;
        private TlsOptions tls = new TlsOptions(null, null, null, false);
        private boolean insecureTransport = true;
        private String user;
        private String password;
        private String serverName;
        private CallListener listener = CallListener.NONE;
        private int maxRequestBytes;
        private int maxRecvBytes;

        /**
         * The client's message size limits in bytes (0: the Go client's defaults, 2 MiB to send and
         * math.MaxInt32 to receive).
         *
         * @throws IllegalArgumentException with the Go client's text when the receive limit is below the send limit
         */
        public Builder messageLimits(int maxRequest, int maxRecv) {
            if (maxRequest > 0 && maxRecv > 0 && maxRequest > maxRecv) {
                throw new IllegalArgumentException("gRPC message recv limit (" + maxRecv
                        + " bytes) must be greater than send limit (" + maxRequest + " bytes)");
            }
            this.maxRequestBytes = maxRequest;
            this.maxRecvBytes = maxRecv;
            return this;
        }

        public Builder endpoints(List<Endpoint> value) {
            if (value.isEmpty()) {
                throw new IllegalArgumentException("at least one endpoint is required");
            }
            this.endpoints = value;
            return this;
        }

        public Builder dialTimeout(Duration value) {
            this.dialTimeout = Objects.requireNonNull(value);
            return this;
        }

        public Builder commandTimeout(Duration value) {
            this.commandTimeout = Objects.requireNonNull(value);
            return this;
        }

        public Builder keepAliveTime(Duration value) {
            this.keepAliveTime = Objects.requireNonNull(value);
            return this;
        }

        public Builder keepAliveTimeout(Duration value) {
            this.keepAliveTimeout = Objects.requireNonNull(value);
            return this;
        }

        public Builder tls(TlsOptions value) {
            this.tls = Objects.requireNonNull(value);
            return this;
        }

        public Builder insecureTransport(boolean value) {
            this.insecureTransport = value;
            return this;
        }

        /** Credentials for etcd auth; a null user disables authentication. */
        public Builder credentials(String user, String password) {
            this.user = user;
            this.password = password;
            return this;
        }

        /** Verifies server certificates against this name (and sends it as SNI); implies TLS. Null: the endpoint's host. */
        public Builder serverName(String value) {
            this.serverName = value;
            return this;
        }

        public Builder listener(CallListener value) {
            this.listener = Objects.requireNonNull(value);
            return this;
        }

        public ClientConfig build() {
            return new ClientConfig(this);
        }
    }
}
