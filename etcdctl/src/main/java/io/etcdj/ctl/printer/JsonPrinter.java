package io.etcdj.ctl.printer;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.etcdj.api.etcdserverpb.LeaseGrantResponse;
import io.etcdj.api.etcdserverpb.LeaseKeepAliveResponse;
import io.etcdj.api.etcdserverpb.LeaseLeasesResponse;
import io.etcdj.api.etcdserverpb.LeaseStatus;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveResponse;
import io.etcdj.api.etcdserverpb.ResponseHeader;
import io.etcdj.api.etcdserverpb.WatchResponse;
import io.etcdj.api.mvccpb.Event;
import java.util.List;

/**
 * {@code -w json}: Go's encoding/json of the structs etcdctl prints. Raw gRPC responses go through
 * {@link GoJson}; the Go client's own response types (lease results, watch batches) embed the header
 * and use their own field names, which are spelled out here.
 */
public final class JsonPrinter extends WholeMessagePrinter {

    private final Out out;

    public JsonPrinter(Out out) {
        super("json");
        this.out = out;
    }

    @Override
    protected void printMessage(Message m) {
        print(m);
    }

    private void print(Message m) {
        out.println(GoJson.of(m));
    }

    private void print(GoJson j) {
        out.println(j.toString());
    }

    /** A Go struct that embeds *pb.ResponseHeader: the header's fields appear at top level. */
    private static GoJson withEmbeddedHeader(ResponseHeader h) {
        return new GoJson().beginObject().embeddedFields(h);
    }

    @Override
    public void watch(WatchResponse r) {
        GoJson j = new GoJson().beginObject().name("Header").message(r.getHeader()).name("Events");
        if (r.getEventsCount() == 0) {
            j.nullValue();
        } else {
            j.beginArray();
            for (Event ev : r.getEventsList()) {
                j.message(ev);
            }
            j.endArray();
        }
        j.name("CompactRevision").value(r.getCompactRevision())
                .name("Canceled").value(r.getCanceled())
                .name("Created").value(r.getCreated()).endObject();
        print(j);
    }

    @Override
    public void grant(LeaseGrantResponse r) {
        print(withEmbeddedHeader(r.getHeader()).name("ID").value(r.getID()).name("TTL").value(r.getTTL())
                .name("Error").value(r.getError()).endObject());
    }

    @Override
    public void keepAlive(LeaseKeepAliveResponse r) {
        print(withEmbeddedHeader(r.getHeader()).name("ID").value(r.getID()).name("TTL").value(r.getTTL())
                .endObject());
    }

    @Override
    public void timeToLive(LeaseTimeToLiveResponse r, boolean keys) {
        GoJson j = withEmbeddedHeader(r.getHeader()).name("id").value(r.getID()).name("ttl").value(r.getTTL())
                .name("granted-ttl").value(r.getGrantedTTL()).name("keys");
        if (r.getKeysCount() == 0) {
            j.nullValue();
        } else {
            j.beginArray();
            for (ByteString k : r.getKeysList()) {
                j.bytes(k);
            }
            j.endArray();
        }
        print(j.endObject());
    }

    @Override
    public void leases(LeaseLeasesResponse r) {
        GoJson j = withEmbeddedHeader(r.getHeader()).name("leases").beginArray();
        for (LeaseStatus l : r.getLeasesList()) {
            j.beginObject().name("id").value(l.getID()).endObject();
        }
        print(j.endArray().endObject());
    }

    @Override
    public void endpointHealth(List<EndpointHealth> r) {
        GoJson j = new GoJson().beginArray();
        for (EndpointHealth h : r) {
            j.beginObject().name("endpoint").value(h.endpoint()).name("health").value(h.health())
                    .name("took").value(h.took());
            if (!h.error().isEmpty()) {
                j.name("error").value(h.error());
            }
            j.endObject();
        }
        print(j.endArray());
    }

    @Override
    public void endpointStatus(List<EndpointStatus> r) {
        GoJson j = new GoJson().beginArray();
        for (EndpointStatus s : r) {
            j.beginObject().name("Endpoint").value(s.endpoint()).name("Status").message(s.status()).endObject();
        }
        print(j.endArray());
    }

    @Override
    public void endpointHashKV(List<EndpointHashKV> r) {
        GoJson j = new GoJson().beginArray();
        for (EndpointHashKV h : r) {
            j.beginObject().name("Endpoint").value(h.endpoint()).name("HashKV").message(h.hashKV()).endObject();
        }
        print(j.endArray());
    }

}
