package io.etcdj.server.slowlog;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.etcdj.serverpb.InternalRaftRequest;
import java.util.Map;

/**
 * An applied Raft request as etcd's slow-apply warning shows it: {@code header:<ID:n > } then the
 * request, leases as {@code lease_grant:<ttl:N-second id:hex>}, everything else in Go's compact
 * text with put values replaced by their size and no password or token.
 */
final class ApplyText {
    private ApplyText() {
    }

    static String of(Message request) {
        if (!(request instanceof InternalRaftRequest r)) {
            return GoText.of(request);
        }
        StringBuilder sb = new StringBuilder("header:<ID:").append(Long.toUnsignedString(r.getId())).append(' ');
        if (r.hasHeader() && !r.getHeader().getUsername().isEmpty()) {
            sb.append(GoText.of(r.getHeader()));
        }
        sb.append("> ");
        if (r.hasLeaseGrant()) {
            return sb.append("lease_grant:<ttl:").append(r.getLeaseGrant().getTTL()).append("-second id:")
                    .append(String.format("%016x", r.getLeaseGrant().getID())).append('>').toString();
        }
        if (r.hasLeaseRevoke()) {
            return sb.append("lease_revoke:<id:").append(String.format("%016x", r.getLeaseRevoke().getID()))
                    .append('>').toString();
        }
        for (Map.Entry<FieldDescriptor, Object> e : r.getAllFields().entrySet()) {
            FieldDescriptor f = e.getKey();
            if (f.getContainingOneof() != null && e.getValue() instanceof Message m) {
                sb.append(f.getName()).append(":<").append(GoText.of(m)).append('>');
            }
        }
        return sb.toString();
    }
}
