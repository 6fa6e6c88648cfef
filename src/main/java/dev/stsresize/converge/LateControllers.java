package dev.stsresize.converge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * What a wait says once it has lasted {@link Waiter#SLOW}: which controller owes the answer and what to
 * check. Both answers the converge waits for after its writes come from kube-controller-manager: the
 * garbage collector removes the {@code orphan} finalizer of the deleted StatefulSet, and the StatefulSet
 * controller observes the re-applied one and adopts its pods. When it is down, both waits are silent
 * until their deadline, and an operator at 3am cannot tell a slow controller from a broken tool.
 */
final class LateControllers {
    private static final String CHECK = "check that kube-controller-manager is up (its pod in kube-system on a"
            + " self-managed control plane, else the provider's control-plane status)";

    private static final String ASK = "is kube-controller-manager up?";

    private LateControllers() {}

    private static String after() {
        return Waiter.SLOW.toSeconds() + "s";
    }

    /**
     * The deleted StatefulSet still held by the garbage collector's own finalizer: "" when it is not
     * terminating, or when another finalizer holds it ({@link OrphanDelete#heldBy} names that one).
     * The garbage collector removes {@code orphan} once it has taken the owner references off the
     * dependents (pkg/controller/garbagecollector/garbagecollector.go, orphanDependents then
     * removeFinalizer).
     */
    static Waiter.Late garbageCollector(Optional<ObjectNode> sts) {
        if (sts.isEmpty() || !sts.get().path("metadata").has("deletionTimestamp") || !OrphanDelete.heldBy(sts).isEmpty()) {
            return Waiter.Late.NONE;
        }
        for (var f : sts.get().path("metadata").path("finalizers")) {
            if ("orphan".equals(f.asText())) {
                return new Waiter.Late("still held by finalizer orphan after " + after() + ": " + ASK,
                        "its finalizer orphan is still there after " + after() + ": the garbage collector of"
                        + " kube-controller-manager removes it once it has taken the owner references off the pods and"
                        + " revisions, within seconds when it runs; " + CHECK + ". The pods and claims stay meanwhile");
            }
        }
        return Waiter.Late.NONE;
    }

    /**
     * The re-applied StatefulSet not yet observed, or a pod not yet adopted: both are the StatefulSet
     * controller's (pkg/controller/statefulset/stateful_set.go: sync writes status.observedGeneration;
     * ClaimPods adopts orphans matching the selector).
     */
    static Waiter.Late statefulSetController(String late) {
        return new Waiter.Late(late + " after " + after() + ": " + ASK, late + " after " + after()
                + ": the StatefulSet controller of kube-controller-manager does it within seconds when it runs; " + CHECK
                + ". The pods keep running meanwhile");
    }
}
