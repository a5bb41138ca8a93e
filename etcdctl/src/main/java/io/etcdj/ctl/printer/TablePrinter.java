package io.etcdj.ctl.printer;

import io.etcdj.api.etcdserverpb.MemberListResponse;
import io.etcdj.cli.AsciiTable;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code -w table}: only member list and the endpoint commands have tables; every other response is
 * refused with etcdctl's "table not supported as output format" (exit 4), after the request was made.
 */
public final class TablePrinter extends UnsupportedPrinter {

    private final Out out;

    public TablePrinter(Out out) {
        super("table");
        this.out = out;
    }

    @Override
    public void memberList(MemberListResponse r) {
        out.print(AsciiTable.render(MemberRows.HEADER, MemberRows.rows(r)));
    }

    @Override
    public void endpointHealth(List<EndpointHealth> r) {
        List<List<String>> rows = new ArrayList<>();
        for (EndpointHealth h : r) {
            rows.add(List.of(h.endpoint(), Boolean.toString(h.health()), h.took(), h.error()));
        }
        out.print(AsciiTable.render(new String[] {"ENDPOINT", "HEALTH", "TOOK", "ERROR"}, rows));
    }

    @Override
    public void endpointStatus(List<EndpointStatus> r) {
        out.print(AsciiTable.render(StatusRows.HEADER, StatusRows.rows(r)));
    }

    @Override
    public void endpointHashKV(List<EndpointHashKV> r) {
        List<List<String>> rows = new ArrayList<>();
        for (EndpointHashKV h : r) {
            rows.add(List.of(h.endpoint(), Integer.toUnsignedString(h.hashKV().getHash())));
        }
        out.print(AsciiTable.render(new String[] {"ENDPOINT", "HASH"}, rows));
    }
}
