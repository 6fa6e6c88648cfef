package dev.stsresize.converge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.AwaitObject;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.ClusterException;
import dev.stsresize.cluster.WatchedKind;
import dev.stsresize.plan.Quantity;
import java.time.Instant;
import java.util.Optional;

/**
 * {@code --restart-pods-for-resize}: evicts the pod using a claim whose file system resize waits,
 * through the Eviction API (PodDisruptionBudgets hold), one at a time, waiting for the replacement to
 * be Ready and the claim's capacity to reach its target before the next. Only ever called once the
 * re-applied StatefulSet has adopted its pods: a pod evicted while it is absent is not recreated.
 */
final class PodRestarter {
    private final Cluster cluster;
    private final Waiter waiter;
    private final Events events;
    private final Progress progress;
    private final Checkpoint checkpoint;

    PodRestarter(Cluster cluster, Waiter waiter, Events events, Progress progress, Checkpoint checkpoint) {
        this.cluster = cluster;
        this.waiter = waiter;
        this.events = events;
        this.progress = progress;
        this.checkpoint = checkpoint;
    }

    /** Restarts the pod of {@code claim} (ordinal from its name); answers "" when done, else what stopped it. */
    String restartFor(ObjectNode sts, String claim, Quantity target, Instant deadline) {
        return restartFor(sts, claim, target, deadline, pod -> { });
    }

    /** As {@link #restartFor(ObjectNode, String, Quantity, Instant)}; {@code evicted} is told each pod evicted. */
    String restartFor(ObjectNode sts, String claim, Quantity target, Instant deadline, java.util.function.Consumer<String> evicted) {
        String ns = Objects.namespace(sts);
        String name = Objects.name(sts);
        String ordinal = claim.substring(claim.lastIndexOf('-') + 1);
        String pod = name + "-" + ordinal;
        Optional<ObjectNode> before = cluster.getPod(ns, pod);
        if (before.isEmpty()) {
            return "pod " + pod + " does not exist (scaled away?): the file system of " + claim + " grows when a pod mounts it";
        }
        String oldUid = Objects.uid(before.get());
        try {
            cluster.evictPod(ns, pod, false);
        } catch (ClusterException e) {
            if (e.code() == 429) {
                return "evicting pod " + pod + " is refused by its PodDisruptionBudget (" + e.getMessage()
                        + "); restart it when the budget allows: kubectl delete pod " + pod + " -n " + ns;
            }
            if (!e.isNotFound()) {
                throw e;
            }
        }
        evicted.accept(pod);
        progress.on(ProgressEvent.write(ns, name, Phase.RESTART, "pod " + pod + " evicted to finish the file system resize of " + claim,
                new Write.Eviction(ns, pod)));
        events.later(sts, "PodEvicted", "Evict", "pod " + pod + " evicted to finish the file system resize of claim " + claim);
        checkpoint.afterWrite("evict pod " + pod);
        AwaitObject.Outcome o = waiter.until(ns, name, Phase.RESTART, "pod " + pod + " to run and be Ready again", WatchedKind.POD, pod, p -> p.isPresent() && !oldUid.equals(Objects.uid(p.get()))
                && Objects.hasCondition(p.get(), "Ready") && !p.get().path("metadata").has("deletionTimestamp"), deadline);
        if (!o.reached()) {
            return "pod " + pod + " was evicted but is not Running and Ready again yet";
        }
        AwaitObject.Outcome c = waiter.until(ns, name, Phase.RESTART, "the file system of claim " + claim + " to reach " + target,
                WatchedKind.PERSISTENT_VOLUME_CLAIM, claim,
                x -> x.isEmpty() || ClaimGrower.stateOf(x.get(), target) == ClaimGrower.State.GROWN, deadline);
        return c.reached() && c.object().isPresent() ? "" : "pod " + pod + " restarted but claim " + claim + " has not reached " + target;
    }
}
