package io.etcdj.ctl.printer;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.OneofDescriptor;
import com.google.protobuf.MessageOrBuilder;
import io.etcdj.cli.GoJsonString;
import java.util.Base64;
import java.util.List;

/**
 * Writes JSON the way Go's encoding/json writes etcd's gogo-generated structs: field names are the
 * proto names, zero values are omitted (omitempty), 64-bit numbers stay numbers, bytes are base64,
 * enums are numbers, and a oneof appears as {@code "Oneof":{"FieldName":{...}}}.
 */
public final class GoJson {

    private final StringBuilder out = new StringBuilder();
    private boolean needComma;

    /** Encodes one message as a JSON object. */
    public static String of(MessageOrBuilder message) {
        GoJson j = new GoJson();
        j.message(message);
        return j.toString();
    }

    @Override
    public String toString() {
        return out.toString();
    }

    /** Starts an object written field by field by the caller (for Go structs that wrap a message). */
    public GoJson beginObject() {
        comma();
        out.append('{');
        needComma = false;
        return this;
    }

    public GoJson endObject() {
        out.append('}');
        needComma = true;
        return this;
    }

    public GoJson beginArray() {
        comma();
        out.append('[');
        needComma = false;
        return this;
    }

    public GoJson endArray() {
        out.append(']');
        needComma = true;
        return this;
    }

    public GoJson name(String name) {
        comma();
        string(name);
        out.append(':');
        needComma = false;
        return this;
    }

    public GoJson value(long v) {
        comma();
        out.append(v);
        needComma = true;
        return this;
    }

    public GoJson unsigned(long v) {
        comma();
        out.append(Long.toUnsignedString(v));
        needComma = true;
        return this;
    }

    public GoJson value(boolean v) {
        comma();
        out.append(v);
        needComma = true;
        return this;
    }

    public GoJson value(String v) {
        comma();
        if (v == null) {
            out.append("null");
        } else {
            string(v);
        }
        needComma = true;
        return this;
    }

    public GoJson bytes(ByteString v) {
        return value(Base64.getEncoder().encodeToString(v.toByteArray()));
    }

    public GoJson nullValue() {
        comma();
        out.append("null");
        needComma = true;
        return this;
    }

    /** Writes the fields of a message inside an object the caller opened (Go's embedded struct). */
    public GoJson embeddedFields(MessageOrBuilder m) {
        fields(m);
        return this;
    }

    public GoJson message(MessageOrBuilder m) {
        beginObject();
        fields(m);
        return endObject();
    }

    private void fields(MessageOrBuilder m) {
        List<FieldDescriptor> fields = m.getDescriptorForType().getFields();
        OneofDescriptor lastOneof = null;
        for (FieldDescriptor f : fields) {
            OneofDescriptor oneof = f.getRealContainingOneof();
            if (oneof != null) {
                if (oneof == lastOneof) {
                    continue;
                }
                lastOneof = oneof;
                FieldDescriptor set = m.getOneofFieldDescriptor(oneof);
                if (set != null) {
                    name(camel(oneof.getName()));
                    beginObject();
                    name(camel(set.getName()));
                    single(set, m.getField(set));
                    endObject();
                }
                continue;
            }
            if (f.isRepeated()) {
                int n = m.getRepeatedFieldCount(f);
                if (n == 0) {
                    continue;
                }
                name(f.getName());
                beginArray();
                for (int i = 0; i < n; i++) {
                    single(f, m.getRepeatedField(f, i));
                }
                endArray();
            } else if (f.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
                if (m.hasField(f)) {
                    name(f.getName());
                    single(f, m.getField(f));
                }
            } else if (!isZero(f, m.getField(f))) {
                name(f.getName());
                single(f, m.getField(f));
            }
        }
    }

    private static boolean isZero(FieldDescriptor f, Object v) {
        switch (f.getJavaType()) {
            case INT:
                return (Integer) v == 0;
            case LONG:
                return (Long) v == 0L;
            case BOOLEAN:
                return !(Boolean) v;
            case STRING:
                return ((String) v).isEmpty();
            case BYTE_STRING:
                return ((ByteString) v).isEmpty();
            case ENUM:
                return ((EnumValueDescriptor) v).getNumber() == 0;
            case FLOAT:
                return (Float) v == 0f;
            case DOUBLE:
                return (Double) v == 0d;
            default:
                return false;
        }
    }

    private void single(FieldDescriptor f, Object v) {
        switch (f.getJavaType()) {
            case INT:
                if (f.getType() == FieldDescriptor.Type.UINT32 || f.getType() == FieldDescriptor.Type.FIXED32) {
                    value(Integer.toUnsignedLong((Integer) v));
                } else {
                    value((Integer) v);
                }
                break;
            case LONG:
                if (f.getType() == FieldDescriptor.Type.UINT64 || f.getType() == FieldDescriptor.Type.FIXED64) {
                    unsigned((Long) v);
                } else {
                    value((Long) v);
                }
                break;
            case BOOLEAN:
                value((Boolean) v);
                break;
            case STRING:
                value((String) v);
                break;
            case BYTE_STRING:
                bytes((ByteString) v);
                break;
            case ENUM:
                value(((EnumValueDescriptor) v).getNumber());
                break;
            case MESSAGE:
                message((MessageOrBuilder) v);
                break;
            default:
                comma();
                out.append(v);
                needComma = true;
        }
    }

    /** Go's exported field name for a proto name: response_range becomes ResponseRange. */
    static String camel(String protoName) {
        StringBuilder b = new StringBuilder();
        boolean up = true;
        for (char c : protoName.toCharArray()) {
            if (c == '_') {
                up = true;
            } else {
                b.append(up ? Character.toUpperCase(c) : c);
                up = false;
            }
        }
        return b.toString();
    }

    private void comma() {
        if (needComma) {
            out.append(',');
        }
    }

    /** Go's string escaping, including its HTML-safe escapes of &lt; &gt; and &amp;. */
    private void string(String s) {
        GoJsonString.append(out, s);
    }
}
