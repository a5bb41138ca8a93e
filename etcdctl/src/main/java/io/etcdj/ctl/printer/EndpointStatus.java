package io.etcdj.ctl.printer;

import io.etcdj.api.etcdserverpb.StatusResponse;

/** Status of one endpoint, as etcdctl pairs it with the endpoint text. */
public record EndpointStatus(String endpoint, StatusResponse status) {
}
