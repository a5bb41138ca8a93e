package io.etcdj.ctl.printer;

/** Result of checking one endpoint: took is Go's duration text, error empty when healthy. */
public record EndpointHealth(String endpoint, boolean health, String took, String error) {
}
