package io.etcdj.server.slowlog;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.MessageOrBuilder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A request as etcd's logs print it: Go's compact protobuf text ({@code key:"a" lease:5 } with
 * nested messages in {@code <...>}), fields in number order, and the value of every PutRequest
 * replaced by {@code value_size}, as etcd's loggable requests do so values never reach logs. Every
 * field is followed by a space, as Go's compact writer does.
 */
public final class GoText {
    /** Fields that never reach a log: passwords (clear or hashed) and tokens. */
    private static final Set<String> SECRETS = Set.of("password", "hashedPassword", "simple_token", "token");

    private GoText() {
    }

    public static String of(MessageOrBuilder m) {
        StringBuilder sb = new StringBuilder();
        write(m, sb);
        return sb.toString();
    }

    private static void write(MessageOrBuilder m, StringBuilder sb) {
        boolean put = m.getDescriptorForType().getName().equals("PutRequest");
        for (Map.Entry<FieldDescriptor, Object> e : m.getAllFields().entrySet()) {
            FieldDescriptor f = e.getKey();
            if (SECRETS.contains(f.getName())) {
                continue;
            }
            if (put && f.getName().equals("value")) {
                int size = ((ByteString) e.getValue()).size();
                if (size > 0) {
                    sb.append("value_size:").append(size).append(' ');
                }
                continue;
            }
            if (f.isRepeated()) {
                for (Object v : (List<?>) e.getValue()) {
                    field(f, v, sb);
                }
            } else {
                field(f, e.getValue(), sb);
            }
        }
    }

    private static void field(FieldDescriptor f, Object v, StringBuilder sb) {
        sb.append(f.getName()).append(':');
        switch (f.getJavaType()) {
            case MESSAGE -> {
                sb.append('<');
                write((MessageOrBuilder) v, sb);
                sb.append('>');
            }
            case BYTE_STRING -> quote(((ByteString) v).toByteArray(), sb);
            case STRING -> quote(((String) v).getBytes(StandardCharsets.UTF_8), sb);
            case ENUM -> sb.append(((EnumValueDescriptor) v).getName());
            case LONG -> sb.append(f.getType() == FieldDescriptor.Type.UINT64 || f.getType() == FieldDescriptor.Type.FIXED64
                    ? Long.toUnsignedString((Long) v) : v.toString());
            case INT -> sb.append(f.getType() == FieldDescriptor.Type.UINT32 || f.getType() == FieldDescriptor.Type.FIXED32
                    ? Integer.toUnsignedString((Integer) v) : v.toString());
            default -> sb.append(v);
        }
        sb.append(' ');
    }

    /** Go's text quoting: printable ASCII as is, quote and backslash escaped, other bytes in octal. */
    private static void quote(byte[] b, StringBuilder sb) {
        sb.append('"');
        for (byte x : b) {
            int c = x & 0xff;
            switch (c) {
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '"' -> sb.append("\\\"");
                case '\'' -> sb.append("\\'");
                case '\\' -> sb.append("\\\\");
                default -> {
                    if (c >= 0x20 && c < 0x7f) {
                        sb.append((char) c);
                    } else {
                        sb.append('\\').append((char) ('0' + (c >> 6))).append((char) ('0' + ((c >> 3) & 7)))
                                .append((char) ('0' + (c & 7)));
                    }
                }
            }
        }
        sb.append('"');
    }
}
