package dev.stsresize.cluster;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Waits for one object to reach a state, by watch, never by polling: GET it, and while the
 * condition does not hold, watch it from the resourceVersion read, resuming from the last one seen
 * whenever the stream ends, and starting over from a fresh GET after a 410. Used for "capacity
 * reached", "pod Ready again" and "StatefulSet gone" (the condition is then {@code Optional::isEmpty}).
 */
public final class AwaitObject {
    private static final ScheduledExecutorService DEADLINES = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "stsresize-watch-deadline");
        t.setDaemon(true);
        return t;
    });

    private final Cluster cluster;
    private final Clock clock;

    public AwaitObject(Cluster cluster, Clock clock) {
        this.cluster = cluster;
        this.clock = clock;
    }

    /** The object as last seen (empty when absent), and whether the condition held before the deadline. */
    public record Outcome(Optional<ObjectNode> object, boolean reached) {}

    /**
     * How a caller follows a wait besides its condition: the watch is closed after each stretch (and
     * resumed from the last resourceVersion seen, without a new GET), and the caller is asked after each
     * stretch and each event whether to go on, so that it can report, notice a stop request or a failure.
     */
    public interface Follow {
        /** The longest a watch runs before {@link #goOn} is asked. */
        Duration stretch();

        /**
         * Asked when the wait begins (the condition did not hold at the first read), after each event
         * that did not meet it and after each stretch: false ends the wait, unreached.
         */
        boolean goOn(Optional<ObjectNode> seen);

        /** The watch open now, or null once it closed: closing it ends the stretch at once. */
        void watching(AutoCloseable watch);
    }

    public Outcome until(WatchedKind kind, String namespace, String name, Predicate<Optional<ObjectNode>> condition,
            Instant deadline) {
        return until(kind, namespace, name, condition, deadline, null);
    }

    /** As {@link #until(WatchedKind, String, String, Predicate, Instant)}, asking {@code follow} (null: nobody) as it goes. */
    public Outcome until(WatchedKind kind, String namespace, String name, Predicate<Optional<ObjectNode>> condition,
            Instant deadline, Follow follow) {
        return until(kind, namespace, name, condition, deadline, follow, null);
    }

    /**
     * As {@link #until(WatchedKind, String, String, Predicate, Instant, Follow)}, from {@code known}: the
     * object as the caller read or wrote it moments ago (null: GET it first). The watch starts from its
     * resourceVersion, which delivers every change since, so the wait costs no GET of its own; a version
     * too old for the server (410) falls back to a GET.
     */
    public Outcome until(WatchedKind kind, String namespace, String name, Predicate<Optional<ObjectNode>> condition,
            Instant deadline, Follow follow, ObjectNode known) {
        Optional<ObjectNode> current = known != null ? Optional.of(known) : get(kind, namespace, name);
        String from = resourceVersion(current);
        boolean begun = false;
        while (true) {
            if (condition.test(current)) {
                return new Outcome(current, true);
            }
            Duration left = Duration.between(clock.instant(), deadline);
            if (left.isNegative() || left.isZero()) {
                return new Outcome(current, false);
            }
            if (follow != null && !begun) {
                begun = true; // the wait begins: asked once before the first watch
                if (!follow.goOn(current)) {
                    return new Outcome(current, false);
                }
            }
            if (follow != null && follow.stretch().compareTo(left) < 0) {
                left = follow.stretch();
            }
            try (ObjectWatch watch = cluster.watch(kind, namespace, name, from)) {
                // the stream is closed at the deadline (or the stretch's end); next() then answers empty
                ScheduledFuture<?> stop = DEADLINES.schedule(watch::close, left.toMillis(), TimeUnit.MILLISECONDS);
                if (follow != null) {
                    follow.watching(watch);
                }
                try {
                    Optional<WatchEvent> event;
                    while ((event = watch.next()).isPresent()) {
                        current = event.get().isDeleted() ? Optional.empty() : Optional.of(event.get().object());
                        if (condition.test(current)) {
                            return new Outcome(current, true);
                        }
                        if (follow != null && !follow.goOn(current)) {
                            return new Outcome(current, false);
                        }
                    }
                    from = watch.lastResourceVersion();
                } finally {
                    stop.cancel(false);
                    if (follow != null) {
                        follow.watching(null);
                    }
                }
                if (follow != null && !follow.goOn(current)) {
                    return new Outcome(current, false);
                }
            } catch (ClusterException e) {
                if (e.code() != 410) {
                    throw e;
                }
                // our resourceVersion is too old: the present state again, then watch from there
                current = get(kind, namespace, name);
                from = resourceVersion(current);
            }
        }
    }

    private Optional<ObjectNode> get(WatchedKind kind, String namespace, String name) {
        return switch (kind) {
            case STATEFUL_SET -> cluster.getStatefulSet(namespace, name);
            case PERSISTENT_VOLUME_CLAIM -> cluster.getClaim(namespace, name);
            case POD -> cluster.getPod(namespace, name);
        };
    }

    private static String resourceVersion(Optional<ObjectNode> object) {
        return object.map(o -> o.path("metadata").path("resourceVersion").asText("")).orElse("");
    }
}
