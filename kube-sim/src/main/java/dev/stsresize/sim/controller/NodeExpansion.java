package dev.stsresize.sim.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The kubelet's half of a resize (NodeExpandVolume: pkg/volume/util/operationexecutor/operation_generator.go and
 * node_expander.go, the claim's status written by pkg/volume/util/resize_util.go). A claim the resizer left at
 * {@code NodeResizePending} is first marked {@code NodeResizeInProgress} (MarkNodeExpansionInProgress), then the
 * driver's NodeExpandVolume runs: when it succeeds the claim gets its capacity and loses the resize status and
 * every resize condition (MarkNodeExpansionFinishedWithRecovery), and the pod an event
 * {@code FileSystemResizeSuccessful}; when the driver refuses (a driver that grows only unpublished volumes,
 * asked while the pod runs) the claim keeps {@code NodeResizeInProgress} and its {@code FileSystemResizePending},
 * and gains a {@code NodeResizeError} condition (MarkNodeExpansionFailedCondition) until a mount finishes it.
 */
final class NodeExpansion {
    static final String PENDING = "NodeResizePending";
    static final String IN_PROGRESS = "NodeResizeInProgress";
    static final String ERROR = "NodeResizeError";

    private NodeExpansion() {}

    /** The kubelet has a file system to grow: pending, or begun and not finished. */
    static boolean pending(JsonNode claim) {
        String s = claim.path("status").path("allocatedResourceStatuses").path("storage").asText();
        return PENDING.equals(s) || IN_PROGRESS.equals(s);
    }

    static boolean inProgress(JsonNode claim) {
        return IN_PROGRESS.equals(claim.path("status").path("allocatedResourceStatuses").path("storage").asText());
    }

    /** The driver refused to grow it while mounted: nothing more happens before the pod mounts it anew. */
    static boolean refused(JsonNode claim) {
        for (JsonNode c : claim.path("status").path("conditions")) {
            if (ERROR.equals(c.path("type").asText()) && "True".equals(c.path("status").asText())) {
                return true;
            }
        }
        return false;
    }

    /** MarkNodeExpansionInProgress: the status the kubelet writes before it calls NodeExpandVolume. */
    static ObjectNode begin(Context ctx, Api kubelet, ObjectNode claim) {
        claim.withObject("/status").withObject("/allocatedResourceStatuses").put("storage", IN_PROGRESS);
        return kubelet.updateStatus(ctx.kinds().claims(), claim);
    }

    /**
     * The driver refused NodeExpandVolume for a published volume: MarkNodeExpansionFailedCondition keeps the
     * other resize conditions and adds NodeResizeError; the kubelet warns on the pod (VolumeResizeFailed).
     */
    static void refuse(Context ctx, Api kubelet, ObjectNode claim, JsonNode pod) {
        String volume = claim.path("spec").path("volumeName").asText();
        String error = "rpc error: code = FailedPrecondition desc = volume " + volume
                + " is published on node " + pod.path("spec").path("nodeName").asText()
                + ": this driver expands a file system only when the volume is not in use";
        ObjectNode st = claim.withObject("/status");
        st.withArray("conditions").addObject().put("type", ERROR).put("status", "True").putNull("lastProbeTime")
                .put("lastTransitionTime", kubelet.store().now()).put("message", "failed to expand pvc with " + error);
        kubelet.updateStatus(ctx.kinds().claims(), claim);
        ctx.events().warning("kubelet", pod, "VolumeResizeFailed", "NodeExpandVolume.NodeExpandVolume failed for volume \""
                + volume + "\" : " + error);
    }

    static void finish(Context ctx, Api kubelet, ObjectNode claim, JsonNode pod) {
        ObjectNode st = claim.withObject("/status");
        String size = st.path("allocatedResources").path("storage")
                .asText(claim.path("spec").path("resources").path("requests").path("storage").asText());
        st.withObject("/capacity").put("storage", size);
        ObjectNode statuses = st.withObject("/allocatedResourceStatuses");
        statuses.remove("storage");
        if (statuses.isEmpty()) {
            st.remove("allocatedResourceStatuses");
        }
        // MergeResizeConditionOnPVC with no condition and keepOldResizeConditions false: every resize condition goes
        removeConditions(st, "FileSystemResizePending", "Resizing", ERROR, "ControllerResizeError");
        kubelet.updateStatus(ctx.kinds().claims(), claim);
        String msg = "MountVolume.NodeExpandVolume succeeded for volume \"" + claim.path("spec").path("volumeName").asText()
                + "\" " + pod.path("spec").path("nodeName").asText();
        ctx.events().normal("kubelet", pod, "FileSystemResizeSuccessful", msg);
        ctx.events().normal("kubelet", claim, "FileSystemResizeSuccessful", msg);
    }

    static void removeConditions(ObjectNode status, String... types) {
        if (!(status.get("conditions") instanceof ArrayNode conds)) {
            return;
        }
        ArrayNode keep = ObjectMeta.NODES.arrayNode();
        for (JsonNode c : conds) {
            if (!java.util.List.of(types).contains(c.path("type").asText())) {
                keep.add(c);
            }
        }
        if (keep.isEmpty()) {
            status.remove("conditions");
        } else {
            status.set("conditions", keep);
        }
    }
}
