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

    public Outcome until(WatchedKind kind, String namespace, String name, Predicate<Optional<ObjectNode>> condition,
            Instant deadline) {
        Optional<ObjectNode> current = get(kind, namespace, name);
        String from = resourceVersion(current);
        while (true) {
            if (condition.test(current)) {
                return new Outcome(current, true);
            }
            Duration left = Duration.between(clock.instant(), deadline);
            if (left.isNegative() || left.isZero()) {
                return new Outcome(current, false);
            }
            try (ObjectWatch watch = cluster.watch(kind, namespace, name, from)) {
                // the stream is closed at the deadline; next() then answers empty
                ScheduledFuture<?> stop = DEADLINES.schedule(watch::close, left.toMillis(), TimeUnit.MILLISECONDS);
                try {
                    Optional<WatchEvent> event;
                    while ((event = watch.next()).isPresent()) {
                        current = event.get().isDeleted() ? Optional.empty() : Optional.of(event.get().object());
                        if (condition.test(current)) {
                            return new Outcome(current, true);
                        }
                    }
                    from = watch.lastResourceVersion();
                } finally {
                    stop.cancel(false);
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
