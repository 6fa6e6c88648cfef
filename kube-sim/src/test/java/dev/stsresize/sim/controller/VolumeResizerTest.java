package dev.stsresize.sim.controller;

import static dev.stsresize.sim.controller.Running.await;
import static dev.stsresize.sim.controller.Running.uid;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

class VolumeResizerTest {

    static Running settled(String resizer) {
        Running c = Running.with(Running.storageClass("cls", resizer));
        c.create("statefulsets", Running.db("cls", "1Gi", "replicas: 1").put("apiVersion", "apps/v1"));
        c.awaitReady("db-0");
        return c;
    }

    static void grow(Running c, String claim, String size) {
        c.patch("persistentvolumeclaims", claim, "{spec: {resources: {requests: {storage: " + size + "}}}}");
    }

    static String capacity(Running c, String claim) {
        return c.get("persistentvolumeclaims", claim).at("/status/capacity/storage").asText();
    }

    static JsonNode condition(Running c, String claim, String type) {
        for (JsonNode cond : c.get("persistentvolumeclaims", claim).at("/status/conditions")) {
            if (cond.path("type").asText().equals(type)) {
                return cond;
            }
        }
        return null;
    }

    /** The capacityBytes the kubelet's summary reports for {@code claim} (-1 when it reports none). */
    static long summaryCapacity(Running c, String claim) {
        var summaries = new dev.stsresize.sim.usage.KubeletSummary(new dev.stsresize.sim.usage.MountedVolumes(c.sim.store(),
                c.sim.catalog()), c.sim.usage());
        String node = c.get("pods", "db-0").at("/spec/nodeName").asText();
        for (JsonNode pod : summaries.of(node).path("pods")) {
            for (JsonNode v : pod.path("volume")) {
                if (v.at("/pvcRef/name").asText().equals(claim)) {
                    return v.path("capacityBytes").asLong();
                }
            }
        }
        return -1;
    }

    @Test
    void online_grows_the_claim_to_its_request_and_clears_the_resize_status() {
        try (Running c = settled("online")) {
            grow(c, "data-db-0", "2Gi");
            await("capacity 2Gi", () -> capacity(c, "data-db-0").equals("2Gi"));
            ObjectNode pvc = c.get("persistentvolumeclaims", "data-db-0");
            assertThat(pvc.at("/status/allocatedResources/storage").asText()).isEqualTo("2Gi");
            assertThat(pvc.at("/status/allocatedResourceStatuses").isMissingNode()).isTrue();
            assertThat(pvc.at("/status/conditions").isMissingNode()).as("conditions cleared").isTrue();
            String pv = pvc.at("/spec/volumeName").asText();
            assertThat(c.get("persistentvolumes", pv).at("/spec/capacity/storage").asText()).as("the PV follows").isEqualTo("2Gi");
            await("the kubelet's event", () -> c.event("data-db-0", "FileSystemResizeSuccessful") != null);
            assertThat(summaryCapacity(c, "data-db-0")).as("the kubelet's summary reports the grown file system").isEqualTo(2L << 30);
            assertThat(c.eventReasons("data-db-0")).contains("ExternalExpanding", "Resizing", "FileSystemResizeRequired",
                    "FileSystemResizeSuccessful");
        }
    }

    @Test
    void offline_stops_at_FileSystemResizePending_until_the_pod_is_deleted_and_recreated() throws Exception {
        try (Running c = settled("offline")) {
            grow(c, "data-db-0", "2Gi");
            await("FileSystemResizePending", () -> condition(c, "data-db-0", "FileSystemResizePending") != null);
            assertThat(c.controllers.awaitIdle(Running.DEADLINE)).isTrue();
            await("the kubelet's attempt while the pod runs", () -> condition(c, "data-db-0", "NodeResizeError") != null);
            ObjectNode pvc = c.get("persistentvolumeclaims", "data-db-0");
            assertThat(pvc.at("/status/capacity/storage").asText()).as("no pod restart yet").isEqualTo("1Gi");
            assertThat(pvc.at("/status/allocatedResourceStatuses/storage").asText()).as("MarkNodeExpansionInProgress, then the"
                    + " driver refused").isEqualTo("NodeResizeInProgress");
            assertThat(condition(c, "data-db-0", "FileSystemResizePending").path("message").asText())
                    .isEqualTo("Waiting for user to (re-)start a pod to finish file system resize of volume on node.");
            assertThat(condition(c, "data-db-0", "NodeResizeError").path("message").asText())
                    .startsWith("failed to expand pvc with rpc error: code = FailedPrecondition");
            await("the kubelet's warning on the pod", () -> c.event("db-0", "VolumeResizeFailed") != null);
            assertThat(summaryCapacity(c, "data-db-0")).as("the file system the pod sees has not grown").isEqualTo(1L << 30);
            String pod = uid(c.get("pods", "db-0"));
            c.delete("pods", "db-0", null, null);
            await("capacity 2Gi after the pod restarted", () -> capacity(c, "data-db-0").equals("2Gi"));
            assertThat(uid(c.get("pods", "db-0"))).isNotEqualTo(pod);
            assertThat(condition(c, "data-db-0", "FileSystemResizePending")).isNull();
            assertThat(condition(c, "data-db-0", "NodeResizeError")).as("every resize condition goes with the mount's expansion").isNull();
            assertThat(c.get("persistentvolumeclaims", "data-db-0").at("/status/allocatedResourceStatuses").isMissingNode()).isTrue();
            c.awaitReady("db-0");
            await("the summary reports the grown file system", () -> summaryCapacity(c, "data-db-0") == 2L << 30);
        }
    }

    @Test
    void infeasible_ends_at_ControllerResizeInfeasible_with_a_warning_and_the_old_capacity() {
        try (Running c = settled("infeasible")) {
            grow(c, "data-db-0", "2Gi");
            await("ControllerResizeInfeasible", () -> c.get("persistentvolumeclaims", "data-db-0")
                    .at("/status/allocatedResourceStatuses/storage").asText().equals("ControllerResizeInfeasible"));
            assertThat(capacity(c, "data-db-0")).isEqualTo("1Gi");
            await("a warning", () -> c.event("data-db-0", "VolumeResizeFailed") != null);
            ObjectNode event = c.event("data-db-0", "VolumeResizeFailed");
            assertThat(event.path("type").asText()).isEqualTo("Warning");
            assertThat(event.path("message").asText()).startsWith("resize volume \"pvc-");
        }
    }

    @Test
    void none_only_announces_ExternalExpanding_and_never_changes_capacity() throws Exception {
        try (Running c = settled("none")) {
            grow(c, "data-db-0", "2Gi");
            await("ExternalExpanding", () -> c.event("data-db-0", "ExternalExpanding") != null);
            assertThat(c.controllers.awaitIdle(Running.DEADLINE)).isTrue();
            ObjectNode pvc = c.get("persistentvolumeclaims", "data-db-0");
            assertThat(pvc.at("/status/capacity/storage").asText()).isEqualTo("1Gi");
            assertThat(pvc.at("/status/allocatedResourceStatuses").isMissingNode()).isTrue();
            assertThat(c.event("data-db-0", "ExternalExpanding").path("message").asText())
                    .isEqualTo("waiting for an external controller to expand this PVC");
            assertThat(c.event("data-db-0", "ExternalExpanding").at("/source/component").asText()).isEqualTo("volume_expand");
        }
    }

    @Test
    void failing_retries_with_VolumeResizeFailed_warnings_that_repeat_and_never_grows() {
        try (Running c = settled("failing")) {
            grow(c, "data-db-0", "2Gi");
            // the workqueue's backoff doubles from resizeMillis: the fast pace reaches a third failure in milliseconds
            await("three failed attempts", () -> c.event("data-db-0", "VolumeResizeFailed") != null
                    && c.event("data-db-0", "VolumeResizeFailed").path("count").asInt() >= 3);
            ObjectNode event = c.event("data-db-0", "VolumeResizeFailed");
            assertThat(event.path("type").asText()).isEqualTo("Warning");
            assertThat(event.path("message").asText()).startsWith("resize volume \"pvc-").contains("code = Unavailable");
            ObjectNode pvc = c.get("persistentvolumeclaims", "data-db-0");
            assertThat(pvc.at("/status/allocatedResourceStatuses/storage").asText()).as("a transient failure keeps the resize in progress")
                    .isEqualTo("ControllerResizeInProgress");
            assertThat(capacity(c, "data-db-0")).isEqualTo("1Gi");
        }
    }
}
