package io.etcdj.robustness;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Checks a history of register operations for linearizability: Wing and Gong's search with
 * Lowe's memoisation, as porcupine runs it. The history is split per key first (P-compositionality:
 * a history is linearizable if and only if each key's is); each key is searched by taking the
 * earliest pending call, linearizing an operation whose call came before every return still
 * ahead, and backtracking when a return is reached with its operation not yet linearized. States
 * already seen (the set of linearized operations plus the register's value) are not searched
 * again. An operation whose outcome is unknown returns at infinity: the search may place it
 * anywhere after its call, including after everything else, which is how "it never happened" is
 * allowed.
 *
 * <p>Unknown outcomes are narrowed first, as etcd's robustness tests do, because every operation
 * returning at infinity multiplies the search: values are unique, so a write (or CAS) with an
 * unknown outcome whose value nobody ever observed can be placed after everything else and is
 * dropped; one whose value was observed must have happened, and before the first observer
 * returned, which becomes its return time. A dropped write could still be what made a
 * compare-and-set fail (the value was no longer the one expected), so a failed compare-and-set
 * that such a write may have preceded is dropped too: removing operations only ever weakens the
 * check, never invents a violation.
 */
public final class Linearizability {
    /** The verdict for a whole history. */
    public record Result(boolean linearizable, boolean complete, String key, String explanation) {
        static Result ok() {
            return new Result(true, true, null, "linearizable");
        }
    }

    private final long budgetNanos;

    /** @param budgetNanos search time per key before giving up with an incomplete (not passing) result */
    public Linearizability(long budgetNanos) {
        this.budgetNanos = budgetNanos;
    }

    public Result check(List<Op> history) {
        Map<String, List<Op>> byKey = history.stream()
                .collect(Collectors.groupingBy(Op::key, TreeMap::new, Collectors.toList()));
        for (Map.Entry<String, List<Op>> e : byKey.entrySet()) {
            Result r = checkKey(e.getKey(), e.getValue());
            if (!r.linearizable() || !r.complete()) {
                return r;
            }
        }
        return Result.ok();
    }

    /** The register: absent (null) at first. */
    static String step(String state, Op op) {
        return switch (op.kind()) {
            case READ -> Objects.equals(state, op.value()) ? state : Invalid.MARK;
            case WRITE -> op.value();
            case CAS -> switch (op.outcome()) {
                case OK -> Objects.equals(state, op.expected()) ? op.value() : Invalid.MARK;
                case FAILED -> Objects.equals(state, op.expected()) ? Invalid.MARK : state;
                case UNKNOWN -> Objects.equals(state, op.expected()) ? op.value() : state;
            };
        };
    }

    /** A sentinel "no such transition" distinct from every register value, including null. */
    private static final class Invalid {
        @SuppressWarnings("StringOperationCanBeSimplified")
        static final String MARK = new String("<invalid>");
    }

    private static final class Entry {
        final Op op;
        final boolean call;
        final int index;
        Entry match;
        Entry prev;
        Entry next;

        Entry(Op op, boolean call, int index) {
            this.op = op;
            this.call = call;
            this.index = index;
        }
    }

    private record Seen(BitSet linearized, String state) {
    }

    private record Frame(Entry call, String state) {
    }

    /** Drops unknown reads and unobserved unknown writes; gives observed unknown writes a return time. */
    static List<Op> narrowUnknowns(List<Op> ops) {
        Map<String, Long> firstObserved = new HashMap<>();
        for (Op o : ops) {
            String seen = null;
            if (o.kind() == Op.Kind.READ && !o.unknown()) {
                seen = o.value();
            } else if (o.kind() == Op.Kind.CAS && o.outcome() == Op.Outcome.OK) {
                seen = o.expected();
            }
            if (seen != null) {
                firstObserved.merge(seen, o.returnNanos(), Math::min);
            }
        }
        long firstDropped = Long.MAX_VALUE;
        for (Op o : ops) {
            if (o.unknown() && o.kind() != Op.Kind.READ && !firstObserved.containsKey(o.value())) {
                firstDropped = Math.min(firstDropped, o.invokeNanos());
            }
        }
        List<Op> out = new ArrayList<>();
        for (Op o : ops) {
            if (o.kind() == Op.Kind.CAS && o.outcome() == Op.Outcome.FAILED && o.returnNanos() >= firstDropped) {
                continue;
            }
            if (!o.unknown()) {
                out.add(o);
            } else if (o.kind() != Op.Kind.READ && firstObserved.containsKey(o.value())) {
                long ret = Math.max(o.invokeNanos(), firstObserved.get(o.value()));
                out.add(new Op(o.id(), o.client(), o.key(), o.kind(), o.value(), o.expected(), o.invokeNanos(), ret,
                        Op.Outcome.OK, o.revision(), o.member()));
            }
        }
        return out;
    }

    private Result checkKey(String key, List<Op> ops) {
        List<Op> kept = narrowUnknowns(ops);
        List<Entry> events = new ArrayList<>();
        for (int i = 0; i < kept.size(); i++) {
            Op op = kept.get(i);
            Entry call = new Entry(op, true, i);
            Entry ret = new Entry(op, false, i);
            call.match = ret;
            ret.match = call;
            events.add(call);
            events.add(ret);
        }
        events.sort(Comparator.comparingLong((Entry e) -> e.call ? e.op.invokeNanos() : e.op.returnNanos())
                .thenComparing(e -> !e.call)); // at equal times calls first: touching operations overlap
        Entry head = new Entry(null, false, -1);
        Entry last = head;
        for (Entry e : events) {
            last.next = e;
            e.prev = last;
            last = e;
        }
        BitSet linearized = new BitSet(kept.size());
        Set<Seen> cache = new HashSet<>();
        Deque<Frame> stack = new ArrayDeque<>();
        String state = null;
        Entry entry = head.next;
        long deadline = System.nanoTime() + budgetNanos;
        long steps = 0;
        int longest = 0;
        while (head.next != null) {
            if ((++steps & 0xfff) == 0 && System.nanoTime() > deadline) {
                return new Result(true, false, key, "search for key " + key + " gave up after "
                        + budgetNanos / 1_000_000 + " ms (" + kept.size() + " operations): no verdict");
            }
            if (entry.call) {
                String next = step(state, entry.op);
                if (next != Invalid.MARK) {
                    BitSet tried = (BitSet) linearized.clone();
                    tried.set(entry.index);
                    if (cache.add(new Seen(tried, next))) {
                        stack.push(new Frame(entry, state));
                        state = next;
                        linearized = tried;
                        lift(entry);
                        longest = Math.max(longest, stack.size());
                        entry = head.next;
                        continue;
                    }
                }
                entry = entry.next;
            } else {
                if (stack.isEmpty()) {
                    return new Result(false, true, key, explain(key, entry.op, kept, longest));
                }
                Frame f = stack.pop();
                state = f.state();
                linearized.clear(f.call().index);
                unlift(f.call());
                entry = f.call().next;
            }
        }
        return Result.ok();
    }

    private static void lift(Entry call) {
        call.prev.next = call.next;
        if (call.next != null) {
            call.next.prev = call.prev;
        }
        Entry ret = call.match;
        ret.prev.next = ret.next;
        if (ret.next != null) {
            ret.next.prev = ret.prev;
        }
    }

    private static void unlift(Entry call) {
        Entry ret = call.match;
        ret.prev.next = ret;
        if (ret.next != null) {
            ret.next.prev = ret;
        }
        call.prev.next = call;
        if (call.next != null) {
            call.next.prev = call;
        }
    }

    private static String explain(String key, Op stuck, List<Op> ops, int longest) {
        StringBuilder sb = new StringBuilder("key ").append(key).append(": not linearizable; no order of the ")
                .append(ops.size()).append(" operations explains ").append(stuck)
                .append(" (longest linearizable prefix: ").append(longest).append(" operations). Operations overlapping it:");
        for (Op o : ops) {
            if (o.invokeNanos() <= stuck.returnNanos() && o.returnNanos() >= stuck.invokeNanos() - 2_000_000_000L) {
                sb.append("\n  ").append(o);
            }
        }
        return sb.toString();
    }
}
