package dev.stsresize.sim.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The kubelet's half of a resize (NodeExpandVolume in pkg/volume/util/operationexecutor/operation_generator.go):
 * a claim the resizer left at {@code NodeResizePending} gets its capacity, loses the resize status
 * and conditions, and the pod an event {@code FileSystemResizeSuccessful}.
 */
final class NodeExpansion {
    static final String PENDING = "NodeResizePending";

    private NodeExpansion() {}

    static boolean pending(JsonNode claim) {
        return PENDING.equals(claim.path("status").path("allocatedResourceStatuses").path("storage").asText());
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
        removeConditions(st, "FileSystemResizePending", "Resizing");
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
