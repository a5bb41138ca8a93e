package io.etcdj.ctl.printer;

import io.etcdj.api.etcdserverpb.HashKVResponse;

/** KV hash of one endpoint, as etcdctl pairs it with the endpoint text. */
public record EndpointHashKV(String endpoint, HashKVResponse hashKV) {
}
