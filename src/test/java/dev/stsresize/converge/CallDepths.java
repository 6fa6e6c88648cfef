package dev.stsresize.converge;

import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.WatchedKind;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link Cluster} that gives each call through the port its depth: one more than the deepest call
 * that had been answered before it was sent. The deepest depth is the number of round trips on the
 * critical path, counted without a clock: calls sent together share a depth, a call sent after another
 * was answered goes one deeper. Opening a watch adds no depth: what follows it waits for a controller,
 * not for a round trip, and the waits are counted apart ({@link #watches}). Nor do the reads of the wait for
 * capacity (from its watch on a claim to the next call that is no claim or claim Event read): how many ticks
 * and rounds it takes is the resizer's pace ({@link #waitReads}). An Event is sent on a thread of
 * its own that nothing waits for ({@code RequestsTogetherTest}): it neither counts nor makes a later call
 * deeper (depth 0), else the Events' own sequence would pass for the run's.
 */
final class CallDepths {
    /** One call: its method and text arguments, its depth, whether it waited for a controller (a watch, a read of the capacity wait). */
    record Call(String name, int depth, boolean watch) {}

    /** What the wait for capacity reads between its watches: each claim and the claims' Events. */
    private static final java.util.Set<String> CAPACITY_READS = java.util.Set.of("getClaim", "listClaimEvents", "watch");
    private boolean inCapacityWait;
    private boolean capacityWaited;

    /** Sent beside the run on the Events' own thread, waited for by nothing but the run's end. */
    private static final String EVENT = "createEvent";

    private final List<Call> calls = new ArrayList<>();
    private int deepestAnswered;

    /** {@code real} with every call's depth recorded here. */
    Cluster around(Cluster real) {
        return (Cluster) Proxy.newProxyInstance(Cluster.class.getClassLoader(), new Class<?>[] {Cluster.class},
                (proxy, method, arguments) -> {
                    String m = method.getName();
                    boolean event = m.equals(EVENT);
                    boolean wait;
                    int depth;
                    synchronized (this) {
                        if (!capacityWaited && m.equals("watch") && arguments[0] == WatchedKind.PERSISTENT_VOLUME_CLAIM) {
                            inCapacityWait = true;
                            capacityWaited = true;
                        } else if (inCapacityWait && !event && !CAPACITY_READS.contains(m)) {
                            inCapacityWait = false;
                        }
                        wait = m.equals("watch") || inCapacityWait && CAPACITY_READS.contains(m);
                        depth = event ? 0 : deepestAnswered + (wait ? 0 : 1);
                    }
                    try {
                        return method.invoke(real, arguments);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    } finally {
                        synchronized (this) {
                            deepestAnswered = Math.max(deepestAnswered, depth);
                            calls.add(new Call(method.getName() + (arguments == null ? "" : " " + java.util.Arrays.stream(arguments)
                                    .filter(x -> x instanceof String || x instanceof Enum<?>).map(String::valueOf)
                                    .collect(java.util.stream.Collectors.joining(" "))), depth, wait));
                        }
                    }
                });
    }

    /** The round trips on the critical path: the deepest call's depth, the watches adding none. */
    synchronized int inSequence() {
        return calls.stream().mapToInt(Call::depth).max().orElse(0);
    }

    /** The watches opened: each a wait for a controller. */
    synchronized long watches() {
        return calls.stream().filter(c -> c.name().startsWith("watch ")).count();
    }

    /** The reads of the wait for capacity after its watch opened: its ticks and rounds, at the resizer's pace. */
    synchronized long waitReads() {
        return calls.stream().filter(c -> c.watch() && !c.name().startsWith("watch ")).count();
    }

    synchronized int count() {
        return calls.size();
    }

    /** Every call by depth, one line per depth: what went together. */
    synchronized String byDepth() {
        StringBuilder b = new StringBuilder();
        for (int d = 0; d <= inSequence(); d++) {
            int depth = d;
            List<String> at = calls.stream().filter(c -> c.depth() == depth).map(c -> c.watch() ? "(" + c.name() + ")" : c.name()).toList();
            if (!at.isEmpty()) {
                b.append(String.format("  %2d: %s%n", d, String.join(", ", at)));
            }
        }
        return b.toString();
    }

    synchronized void clear() {
        calls.clear();
        deepestAnswered = 0;
        inCapacityWait = false;
        capacityWaited = false;
    }
}
