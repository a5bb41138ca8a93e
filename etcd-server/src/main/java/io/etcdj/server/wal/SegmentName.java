package io.etcdj.server.wal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A segment file name, {@code %016x-%016x.wal}: the segment's sequence number and the index of the
 * first entry written after it was cut. Every entry in earlier segments has a lower index, which is
 * what lets {@link Wal#open} skip them.
 */
record SegmentName(long seq, long firstIndex) implements Comparable<SegmentName> {

    static final String SUFFIX = ".wal";
    private static final Pattern NAME = Pattern.compile("([0-9a-f]{16})-([0-9a-f]{16})\\.wal");

    static Optional<SegmentName> parse(String fileName) {
        Matcher m = NAME.matcher(fileName);
        if (!m.matches()) {
            return Optional.empty();
        }
        return Optional.of(new SegmentName(Long.parseUnsignedLong(m.group(1), 16),
                Long.parseUnsignedLong(m.group(2), 16)));
    }

    /** The segment names among {@code fileNames}, by sequence number. */
    static List<SegmentName> sorted(List<String> fileNames) {
        List<SegmentName> names = new ArrayList<>();
        for (String f : fileNames) {
            parse(f).ifPresent(names::add);
        }
        Collections.sort(names);
        return names;
    }

    /**
     * Position in {@code names} of the segment reading must start from to see everything after
     * {@code index}: the last one whose first index is not above it; -1 if none.
     */
    static int lastStartingAtOrBefore(List<SegmentName> names, long index) {
        int found = -1;
        for (int i = 0; i < names.size(); i++) {
            if (Long.compareUnsigned(names.get(i).firstIndex, index) <= 0) {
                found = i;
            }
        }
        return found;
    }

    String fileName() {
        return String.format("%016x-%016x%s", seq, firstIndex, SUFFIX);
    }

    /** The name a new segment is prepared under before it is renamed into place. */
    String tempFileName() {
        return fileName() + ".tmp";
    }

    @Override
    public int compareTo(SegmentName o) {
        return Long.compareUnsigned(seq, o.seq);
    }
}
