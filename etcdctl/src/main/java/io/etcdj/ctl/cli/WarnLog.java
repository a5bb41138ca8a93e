package io.etcdj.ctl.cli;

import io.etcdj.client.CallListener;
import io.etcdj.client.GoStatusNames;
import io.grpc.Status;
import java.io.PrintStream;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.UUID;

/**
 * Prints the zap warning etcd's Go client logs when a unary call fails, which etcdctl 3.4 shows on
 * stderr before its "Error:" line.
 */
final class WarnLog implements CallListener {

    private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXX");

    private final PrintStream err;
    private final String clientId = "client-" + UUID.randomUUID();

    WarnLog(PrintStream err) {
        this.err = err;
    }

    @Override
    public void unaryCallFailed(String endpoint, Status status, int attempt) {
        err.println("{\"level\":\"warn\",\"ts\":\"" + ZonedDateTime.now().format(TS)
                + "\",\"caller\":\"clientv3/retry_interceptor.go:62\",\"msg\":\"retrying of unary invoker failed\","
                + "\"target\":\"endpoint://" + clientId + "/" + endpoint + "\",\"attempt\":" + attempt
                + ",\"error\":\"" + jsonEscape(GoStatusNames.rpcError(status)) + "\"}");
    }

    private static String jsonEscape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
