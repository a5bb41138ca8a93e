package io.etcdj.ctl.printer;

import com.google.protobuf.Message;
import io.etcdj.api.etcdserverpb.LeaseGrantResponse;
import io.etcdj.api.etcdserverpb.LeaseKeepAliveResponse;
import io.etcdj.api.etcdserverpb.LeaseLeasesResponse;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveResponse;
import io.etcdj.api.etcdserverpb.WatchResponse;

/**
 * {@code -w protobuf}: the response's wire bytes, no newline. For the Go client's lease types only the
 * embedded header is marshalled, which is what etcdctl writes; endpoint results have no protobuf form.
 */
public final class ProtobufPrinter extends WholeMessagePrinter {

    private final Out out;

    public ProtobufPrinter(Out out) {
        super("protobuf");
        this.out = out;
    }

    @Override
    protected void printMessage(Message m) {
        print(m);
    }

    private void print(Message m) {
        out.write(m.toByteArray());
    }

    @Override
    public void watch(WatchResponse r) {
        print(WatchResponse.newBuilder().setHeader(r.getHeader()).addAllEvents(r.getEventsList())
                .setCompactRevision(r.getCompactRevision()).setCanceled(r.getCanceled())
                .setCreated(r.getCreated()).build());
    }

    @Override
    public void grant(LeaseGrantResponse r) {
        print(r.getHeader());
    }

    @Override
    public void keepAlive(LeaseKeepAliveResponse r) {
        print(r.getHeader());
    }

    @Override
    public void timeToLive(LeaseTimeToLiveResponse r, boolean keys) {
        print(r.getHeader());
    }

    @Override
    public void leases(LeaseLeasesResponse r) {
        print(r.getHeader());
    }

}
