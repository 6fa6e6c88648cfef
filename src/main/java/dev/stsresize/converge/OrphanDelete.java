package dev.stsresize.converge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.AwaitObject;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.ClusterException;
import dev.stsresize.cluster.WatchedKind;
import java.time.Instant;
import java.util.Optional;

/**
 * Step 6: the orphan delete, {@code propagationPolicy=Orphan} with {@code preconditions.uid} of the
 * StatefulSet decided on, then a watch until it is gone (the garbage collector has then removed every
 * owner reference). A StatefulSet recreated by someone else meanwhile is never touched (409).
 */
final class OrphanDelete {
    /** How the delete ended: gone, or something else stands under the name (its UID), or the wait ran out. */
    record Result(boolean gone, String message, boolean nothingDeleted) {
        Result(boolean gone, String message) {
            this(gone, message, false);
        }
    }

    private final Cluster cluster;
    private final Waiter waiter;
    private final Events events;
    private final Progress progress;
    private final Checkpoint checkpoint;

    OrphanDelete(Cluster cluster, Waiter waiter, Events events, Progress progress, Checkpoint checkpoint) {
        this.cluster = cluster;
        this.waiter = waiter;
        this.events = events;
        this.progress = progress;
        this.checkpoint = checkpoint;
    }

    Result run(String ns, String name, String uid, Instant deadline) {
        Optional<ObjectNode> deleted;
        try {
            deleted = cluster.deleteStatefulSetOrphan(ns, name, uid, false);
        } catch (ClusterException e) {
            if (!e.isConflict()) {
                throw e;
            }
            // the UID precondition held: whatever stands under the name now is not the object we decided on
            return new Result(false, "the orphan delete was refused: " + e.getMessage() + ". Someone re-created StatefulSet "
                    + ns + "/" + name + " since it was read; nothing was deleted. Run again to decide on what is there now", true);
        }
        if (deleted.isEmpty()) {
            // 404: someone deleted it between our read and this delete, with a propagation we cannot know;
            // saying "deleted with Orphan" here would vouch for a delete this run did not make
            progress.on(ProgressEvent.warn(ns, name, Phase.ORPHAN_DELETE, "StatefulSet " + name + " (UID " + uid
                    + ") was already gone (404) when the orphan delete was sent: someone else deleted it, with a"
                    + " propagation this run cannot know; its pods and claims are checked next"));
            return awaitGone(ns, name, uid, deadline, null);
        }
        progress.on(ProgressEvent.write(ns, name, Phase.ORPHAN_DELETE, "StatefulSet " + name + " (UID " + uid
                + ") deleted with propagationPolicy=Orphan: pods, claims and revisions stay",
                new Write.OrphanDelete(ns, name, uid)));
        deleted.ifPresent(d -> events.later(d, "OrphanDeleted", "Delete", "StatefulSet deleted with propagationPolicy=Orphan"
                + " (UID " + uid + ") to re-create it with grown claim templates; pods and claims are kept"));
        checkpoint.afterWrite("orphan-delete statefulset " + name);
        // watched from the delete's answer (the object terminating), not from a GET of its own
        return awaitGone(ns, name, uid, deadline, deleted.get());
    }

    /** The garbage collector's finalizers (apimachinery metav1.FinalizerOrphanDependents, FinalizerDeleteDependents). */
    private static final java.util.Set<String> GARBAGE_COLLECTOR = java.util.Set.of("orphan", "foregroundDeletion");

    /**
     * "held by finalizer X: that controller must remove it" when a finalizer other than the garbage
     * collector's keeps the deleted object; "" otherwise. The API server removes the object only once
     * every finalizer is gone (staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go), and
     * the garbage collector removes only its own ({@code orphan} here): another one is its controller's to remove.
     */
    static String heldBy(Optional<ObjectNode> sts) {
        if (sts.isEmpty() || !sts.get().path("metadata").has("deletionTimestamp")) {
            return "";
        }
        java.util.List<String> foreign = new java.util.ArrayList<>();
        for (var f : sts.get().path("metadata").path("finalizers")) {
            if (!GARBAGE_COLLECTOR.contains(f.asText())) {
                foreign.add(f.asText());
            }
        }
        if (foreign.isEmpty()) {
            return "";
        }
        return "held by finalizer" + (foreign.size() == 1 ? " " : "s ") + String.join(", ", foreign) + ": "
                + (foreign.size() == 1 ? "that controller" : "their controllers") + " must remove " + (foreign.size() == 1 ? "it" : "them")
                + " (the garbage collector removes only its own, orphan); the run re-applies once the StatefulSet is gone";
    }

    /** @param known the StatefulSet as last read or answered, the watch's start (null: a GET first) */
    Result awaitGone(String ns, String name, String uid, Instant deadline, ObjectNode known) {
        boolean[] named = {false};
        Waiter.Result r = waiter.until(Waiter.Wait.of(ns, name, Phase.ORPHAN_DELETE, "StatefulSet " + name + " (UID " + uid
                + ") to be gone (404)", WatchedKind.STATEFUL_SET, name, s -> s.isEmpty() || !uid.equals(Objects.uid(s.get())), deadline)
                .withDetail(s -> {
                    String held = heldBy(s);
                    if (!held.isEmpty() && !named[0]) {
                        named[0] = true; // said once as a warning; every tick says it too
                        progress.on(ProgressEvent.warn(ns, name, Phase.ORPHAN_DELETE, "StatefulSet " + name + " is " + held));
                    }
                    return held;
                }).withSlow(LateControllers::garbageCollector).from(known));
        AwaitObject.Outcome o = r.outcome();
        if (!o.reached()) {
            String held = heldBy(o.object());
            return new Result(false, "StatefulSet " + ns + "/" + name + " is still terminating " + (held.isEmpty()
                    ? "(finalizers " + o.object().map(s -> s.path("metadata").path("finalizers").toString()).orElse("[]")
                            + "): the garbage collector has not finished orphaning its dependents"
                    : "and " + held));
        }
        if (o.object().isPresent()) {
            return new Result(false, "a StatefulSet " + ns + "/" + name + " with another UID (" + Objects.uid(o.object().get())
                    + ") appeared right after the delete: a reconciler (Helm, Flux, Argo CD, an operator) re-created it;"
                    + " it is left alone");
        }
        progress.on(ProgressEvent.info(ns, name, Phase.ORPHAN_DELETE, "StatefulSet " + name + " is gone (404)"));
        return new Result(true, "");
    }
}
