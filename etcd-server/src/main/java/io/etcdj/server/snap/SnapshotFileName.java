package io.etcdj.server.snap;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A snapshot file name, {@code %016x-%016x.snap}: term, then index. Newer snapshots sort later. */
record SnapshotFileName(long term, long index) implements Comparable<SnapshotFileName> {

    static final String SUFFIX = ".snap";
    static final String TEMP_SUFFIX = ".tmp";
    static final String BROKEN_SUFFIX = ".broken";
    private static final Pattern NAME = Pattern.compile("([0-9a-f]{16})-([0-9a-f]{16})\\.snap");

    static Optional<SnapshotFileName> parse(String fileName) {
        Matcher m = NAME.matcher(fileName);
        if (!m.matches()) {
            return Optional.empty();
        }
        return Optional.of(new SnapshotFileName(Long.parseUnsignedLong(m.group(1), 16),
                Long.parseUnsignedLong(m.group(2), 16)));
    }

    String fileName() {
        return String.format("%016x-%016x%s", term, index, SUFFIX);
    }

    @Override
    public int compareTo(SnapshotFileName o) {
        int byTerm = Long.compareUnsigned(term, o.term);
        return byTerm != 0 ? byTerm : Long.compareUnsigned(index, o.index);
    }
}
