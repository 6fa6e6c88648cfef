package dev.stsresize.converge;

import dev.stsresize.plan.Metadata;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.plan.Quantity;
import java.util.Optional;

/**
 * What a claim as read says is still unfinished at the end of a run: its file system waits, or its
 * volume is still below the target (a run with --wait-for-resize=false goes on as soon as the requests
 * are accepted; "converged" then speaks of the StatefulSet, and this says, from the claim itself, that
 * the volume has not caught up — on a cluster without a resizer it never will).
 */
final class ClaimWarnings {
    /** How every warning of a claim whose file system waits for its resize begins. */
    static final String FS_PENDING_PREFIX = "claim %s waits for a file system resize";
    /** How every warning of a claim whose volume is still below its target begins. */
    static final String NOT_GROWN_PREFIX = "claim %s has not grown yet";

    private ClaimWarnings() {}

    static Optional<String> of(Cluster cluster, String namespace, String statefulSet, ObjectNode claim, Quantity target) {
        String name = Metadata.textOrEmpty(claim, "metadata", "name");
        return switch (ClaimGrower.stateOf(claim, target)) {
            case FILE_SYSTEM_PENDING -> Optional.of(fileSystemPending(cluster, namespace, statefulSet, claim, name));
            case WAITING, INFEASIBLE -> {
                String capacity = Metadata.textOrEmpty(claim, "status", "capacity", "storage");
                String allocation = Metadata.textOrEmpty(claim, "status", "allocatedResourceStatuses", "storage");
                yield Optional.of(NOT_GROWN_PREFIX.formatted(name) + ": capacity " + (capacity.isEmpty() ? "unknown" : capacity)
                        + ", request " + target + (allocation.isEmpty() ? "" : " (" + allocation + ")")
                        + "; the volume's resizer has not finished: follow it with `kubectl get pvc " + name + " -n " + namespace
                        + " -w` and `kubectl describe pvc " + name + " -n " + namespace + "` (no resizer in the cluster: its"
                        + " events say so, and the volume never grows)");
            }
            default -> Optional.empty();
        };
    }

    /** The claim's volume is below the target (a resize waiting, or one the resizer says cannot happen). */
    static boolean belowTarget(ObjectNode claim, Quantity target) {
        ClaimGrower.State s = ClaimGrower.stateOf(claim, target);
        return s == ClaimGrower.State.WAITING || s == ClaimGrower.State.INFEASIBLE;
    }

    /**
     * One warning for the claims of a run that ended on its resizer's failure: they did not grow, and the result's
     * failure (said once, above) says why and names revert; not "the resizer has not finished".
     *
     * @param claims "name (capacity of target)" each
     */
    static String failedResize(java.util.List<String> claims) {
        boolean one = claims.size() == 1;
        return (one ? "claim " : "claims ") + String.join(", ", claims) + " did not grow: "
                + (one ? "its" : "their") + " resize failed, as the failure above says";
    }

    /**
     * Which pod mounts the claim is read, not assumed: a scaled-away ordinal has none, and deleting a
     * pod by hand would bypass its PodDisruptionBudget. A restart is named only where the kubelet said it
     * cannot grow the file system while the pod runs ({@code NodeResizeError}); otherwise the kubelet
     * grows it online on the pod's next sync, and the restart is only the way out if it never does.
     */
    private static String fileSystemPending(Cluster cluster, String namespace, String statefulSet, ObjectNode claimObject, String claim) {
        String pod = statefulSet + claim.substring(claim.lastIndexOf('-'));
        boolean mounted = cluster.getPod(namespace, pod)
                .map(p -> p.path("spec").path("volumes").findValuesAsText("claimName").contains(claim))
                .orElse(false);
        if (!mounted) {
            return FS_PENDING_PREFIX.formatted(claim) + ": no pod mounts it now; its file system grows "
                    + "when a pod next mounts it";
        }
        String refused = Objects.conditionMessage(claimObject, "NodeResizeError").orElse("");
        if (!refused.isEmpty()) {
            return FS_PENDING_PREFIX.formatted(claim) + " on pod " + pod + ": the kubelet cannot grow it while the pod runs ("
                    + refused + "); restart the pod (apply --restart-pods-for-resize evicts it, respecting PodDisruptionBudgets)";
        }
        return FS_PENDING_PREFIX.formatted(claim) + " on pod " + pod + ": the kubelet had not grown it when the run stopped "
                + "following it; it grows it while the pod runs (online expansion). If `kubectl get pvc " + claim + " -n " + namespace
                + " -w` still shows FileSystemResizePending minutes later, restart the pod (apply --restart-pods-for-resize "
                + "evicts it, respecting PodDisruptionBudgets)";
    }
}
