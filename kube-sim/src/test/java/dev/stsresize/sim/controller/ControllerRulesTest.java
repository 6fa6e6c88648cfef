package dev.stsresize.sim.controller;

import static dev.stsresize.sim.controller.Running.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/**
 * Issue 14's controller rules: a statically pre-bound PersistentVolume and claim bind
 * (pv_controller.go syncUnboundClaim, "User asked for a specific PV"); ResourceQuota status.used is
 * kept (resource_quota_controller.go with the claim evaluator); eviction of a pod that is not running
 * ignores the budget (eviction.go canIgnorePDB); a kubernetes.io/no-provisioner class never gains
 * capacity after a resize request (no external resizer: only the expand controller's ExternalExpanding).
 */
class ControllerRulesTest {
    static ObjectNode localClass() {
        // the resizer annotation asks for an online resizer: no-provisioner must win over it
        return Running.yaml("apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: local\n"
                + "  annotations: {sim.stsresize.dev/resizer: online}\nprovisioner: kubernetes.io/no-provisioner\n"
                + "allowVolumeExpansion: true\n");
    }

    static ObjectNode preBoundVolume(String name, String size, String claim) {
        return Running.yaml("apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: " + name + "}\n"
                + "spec: {storageClassName: local, accessModes: [ReadWriteOnce], capacity: {storage: " + size + "},"
                + " persistentVolumeReclaimPolicy: Retain, local: {path: /mnt/" + name + "},"
                + " claimRef: {namespace: default, name: " + claim + "}}\n");
    }

    static ObjectNode claimFor(String name, String volume, String size) {
        return Running.yaml("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: " + name + ", namespace: default}\n"
                + "spec: {storageClassName: local, volumeName: " + volume + ", accessModes: [ReadWriteOnce],"
                + " resources: {requests: {storage: " + size + "}}}\n");
    }

    @Test
    void a_statically_pre_bound_volume_and_claim_bind_whichever_comes_first() {
        try (Running c = Running.with(localClass())) {
            ObjectNode claim = c.create("persistentvolumeclaims", claimFor("data", "pv-data", "1Gi"));
            c.create("persistentvolumes", preBoundVolume("pv-data", "5Gi", "data"));
            await("data is Bound", () -> VolumeBinderTest.phase(c, "data").equals("Bound"));
            ObjectNode pvc = c.get("persistentvolumeclaims", "data");
            assertThat(pvc.at("/status/capacity/storage").asText()).as("the volume's capacity").isEqualTo("5Gi");
            assertThat(pvc.at("/metadata/annotations/pv.kubernetes.io~1bind-completed").asText()).isEqualTo("yes");
            assertThat(pvc.at("/metadata/annotations/pv.kubernetes.io~1bound-by-controller").isMissingNode())
                    .as("the user chose the volume").isTrue();
            ObjectNode pv = c.get("persistentvolumes", "pv-data");
            assertThat(pv.at("/spec/claimRef/uid").asText()).isEqualTo(Running.uid(claim));
            assertThat(pv.at("/status/phase").asText()).isEqualTo("Bound");

            // checkVolumeSatisfyClaim runs for a PV without claimRef only: one pre-bound to the claim binds unchecked
            c.create("persistentvolumes", VolumeBinderTest.volume("pv-small", "local", "1Gi"));
            c.create("persistentvolumeclaims", claimFor("big", "pv-small", "2Gi"));
            await("VolumeMismatch", () -> c.event("big", "VolumeMismatch") != null);
            assertThat(c.event("big", "VolumeMismatch").path("message").asText())
                    .isEqualTo("Cannot bind to requested volume \"pv-small\": requested PV is too small");
            assertThat(VolumeBinderTest.phase(c, "big")).isEqualTo("Pending");
        }
    }

    @Test
    void a_no_provisioner_class_never_gains_capacity_after_a_resize_request() throws Exception {
        try (Running c = Running.with(localClass(), preBoundVolume("pv-data", "1Gi", "data"))) {
            c.create("persistentvolumeclaims", claimFor("data", "pv-data", "1Gi"));
            await("data is Bound", () -> VolumeBinderTest.phase(c, "data").equals("Bound"));
            VolumeResizerTest.grow(c, "data", "2Gi");
            await("ExternalExpanding", () -> c.event("data", "ExternalExpanding") != null);
            assertThat(c.controllers.awaitIdle(Running.DEADLINE)).isTrue();
            ObjectNode pvc = c.get("persistentvolumeclaims", "data");
            assertThat(pvc.at("/spec/resources/requests/storage").asText()).isEqualTo("2Gi");
            assertThat(pvc.at("/status/capacity/storage").asText()).isEqualTo("1Gi");
            assertThat(pvc.at("/status/allocatedResourceStatuses").isMissingNode()).isTrue();
            assertThat(c.eventReasons("data")).doesNotContain("Resizing", "FileSystemResizeRequired");
        }
    }

    @Test
    void a_csi_class_grows_only_once_its_driver_registers_a_csidriver() throws Exception {
        ObjectNode unregistered = Running.yaml("apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: orphan\n"
                + "  annotations: {sim.stsresize.dev/resizer: online}\nprovisioner: undeployed.csi.example\nallowVolumeExpansion: true\n");
        try (Running c = Running.with(unregistered)) {
            c.create("persistentvolumeclaims", VolumeBinderTest.claim("data", "orphan", "1Gi"));
            await("data is Bound", () -> VolumeBinderTest.phase(c, "data").equals("Bound"));
            VolumeResizerTest.grow(c, "data", "2Gi");
            await("ExternalExpanding", () -> c.event("data", "ExternalExpanding") != null);
            assertThat(c.controllers.awaitIdle(Running.DEADLINE)).isTrue();
            assertThat(c.get("persistentvolumeclaims", "data").at("/status/capacity/storage").asText())
                    .as("no CSIDriver, no external-resizer").isEqualTo("1Gi");
            assertThat(c.eventReasons("data")).doesNotContain("Resizing");
            // negative control: the driver deployed, its resizer lists the claims and grows this one's volume (no pod mounts it,
            // so the file system waits for the kubelet)
            c.sim.load(Running.csiDriver("undeployed.csi.example"));
            await("FileSystemResizePending", () -> VolumeResizerTest.condition(c, "data", "FileSystemResizePending") != null);
            assertThat(c.eventReasons("data")).contains("Resizing");
        }
    }

    @Test
    void resource_quota_status_used_follows_the_claims() {
        try (Running c = Running.with(Running.storageClass("csi", "online"))) {
            c.create("resourcequotas", Running.yaml("apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: storage, namespace: default}\n"
                    + "spec: {hard: {requests.storage: 10Gi, persistentvolumeclaims: '5', csi.storageclass.storage.k8s.io/requests.storage: 4Gi,"
                    + " pods: '10'}}\n"));
            c.create("persistentvolumeclaims", VolumeBinderTest.claim("a", "csi", "1Gi"));
            c.create("persistentvolumeclaims", VolumeBinderTest.claim("b", "csi", "2Gi"));
            await("used counts both claims", () -> "2".equals(c.get("resourcequotas", "storage").at("/status/used/persistentvolumeclaims").asText()));
            ObjectNode quota = c.get("resourcequotas", "storage");
            assertThat(quota.at("/status/used/requests.storage").asText()).isEqualTo("3Gi");
            assertThat(quota.at("/status/used/csi.storageclass.storage.k8s.io~1requests.storage").asText()).isEqualTo("3Gi");
            assertThat(quota.at("/status/used/pods").isMissingNode()).as("only the claim evaluator is simulated").isTrue();
            assertThat(quota.at("/status/hard")).isEqualTo(quota.at("/spec/hard"));
            await("a is Bound", () -> VolumeBinderTest.phase(c, "a").equals("Bound"));
            VolumeResizerTest.grow(c, "a", "2Gi");
            await("used follows a resize", () -> "4Gi".equals(c.get("resourcequotas", "storage").at("/status/used/requests.storage").asText()));
        }
    }

    @Test
    void evicting_a_pod_that_is_not_running_ignores_the_budget() {
        try (Running c = GarbageCollectorTest.settledDb("")) {
            // a budget that is not met (2 healthy of 3): only canIgnorePDB lets a pod of it go
            c.create("poddisruptionbudgets", EvictionTest.budget("minAvailable: 3"));
            await("the budget is processed", () -> c.get("poddisruptionbudgets", "db").at("/status/currentHealthy").asInt() == 2);
            // a pod of the budget that never starts: its claim does not exist, so it stays Pending
            c.create("pods", Running.yaml("apiVersion: v1\nkind: Pod\nmetadata: {name: stuck, namespace: default, labels: {app: db}}\n"
                    + "spec: {containers: [{name: c, image: busybox:1.36}], volumes: [{name: v, persistentVolumeClaim: {claimName: missing}}]}\n"));
            assertThat(c.get("pods", "stuck").at("/status/phase").asText("Pending")).isEqualTo("Pending");
            EvictionTest.evict(c, "stuck");
            await("the Pending pod is gone", () -> c.list("pods").stream().noneMatch(p -> p.at("/metadata/name").asText().equals("stuck")));
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> EvictionTest.evict(c, "db-1")).as("negative control: a running pod")
                    .hasMessage("Cannot evict pod as it would violate the pod's disruption budget.");
        }
    }
}
