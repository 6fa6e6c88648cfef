package dev.stsresize.sim.controller;

import static dev.stsresize.sim.controller.Running.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

class VolumeBinderTest {
    static ObjectNode claim(String name, String cls, String size) {
        return Running.yaml("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: " + name + ", namespace: default}\n"
                + "spec: {storageClassName: " + cls + ", accessModes: [ReadWriteOnce], resources: {requests: {storage: " + size + "}}}\n");
    }

    static ObjectNode volume(String name, String cls, String size) {
        return Running.yaml("apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: " + name + "}\n"
                + "spec: {storageClassName: " + cls + ", accessModes: [ReadWriteOnce], capacity: {storage: " + size + "},"
                + " persistentVolumeReclaimPolicy: Retain, local: {path: /mnt/" + name + "}}\n");
    }

    static ObjectNode localClass(String binding) {
        return Running.yaml("apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: local}\n"
                + "provisioner: kubernetes.io/no-provisioner\nvolumeBindingMode: " + binding + "\n");
    }

    static String phase(Running c, String claim) {
        return c.get("persistentvolumeclaims", claim).at("/status/phase").asText();
    }

    @Test
    void a_claim_binds_statically_to_the_smallest_available_volume_that_fits() {
        try (Running c = Running.with(localClass("Immediate"), volume("big", "local", "10Gi"), volume("fits", "local", "2Gi"),
                volume("small", "local", "1Gi"))) {
            c.create("persistentvolumeclaims", claim("c", "local", "1500Mi"));
            await("c is Bound", () -> phase(c, "c").equals("Bound"));
            ObjectNode pvc = c.get("persistentvolumeclaims", "c");
            assertThat(pvc.at("/spec/volumeName").asText()).isEqualTo("fits");
            assertThat(pvc.at("/status/capacity/storage").asText()).isEqualTo("2Gi");
            assertThat(c.get("persistentvolumes", "fits").at("/spec/claimRef/uid").asText()).isEqualTo(Running.uid(pvc));
            assertThat(c.get("persistentvolumes", "fits").at("/status/phase").asText()).isEqualTo("Bound");
        }
    }

    @Test
    void a_class_with_a_provisioner_gets_a_volume_provisioned_at_the_requested_size() {
        try (Running c = Running.with(Running.storageClass("csi", "online"))) {
            ObjectNode pvc = c.create("persistentvolumeclaims", claim("c", "csi", "3Gi"));
            await("c is Bound", () -> phase(c, "c").equals("Bound"));
            ObjectNode pv = c.get("persistentvolumes", "pvc-" + Running.uid(pvc));
            assertThat(pv.at("/spec/capacity/storage").asText()).isEqualTo("3Gi");
            assertThat(pv.at("/spec/csi/driver").asText()).isEqualTo("sim.csi.example");
            await("ProvisioningSucceeded", () -> c.event("c", "ProvisioningSucceeded") != null);
        }
    }

    @Test
    void no_provisioner_and_no_volume_is_a_ProvisioningFailed_warning() {
        try (Running c = Running.with(localClass("Immediate"))) {
            c.create("persistentvolumeclaims", claim("c", "local", "1Gi"));
            await("ProvisioningFailed", () -> c.event("c", "ProvisioningFailed") != null);
            assertThat(c.event("c", "ProvisioningFailed").path("message").asText())
                    .isEqualTo("no volume plugin matched name: kubernetes.io/no-provisioner");
            assertThat(phase(c, "c")).isEqualTo("Pending");
        }
    }

    @Test
    void a_pod_whose_immediate_claim_cannot_bind_stays_Pending_with_FailedScheduling() {
        try (Running c = Running.with(localClass("Immediate"))) {
            c.create("persistentvolumeclaims", claim("c", "local", "1Gi"));
            c.create("pods", Running.yaml("apiVersion: v1\nkind: Pod\nmetadata: {name: user, namespace: default}\n"
                    + "spec: {containers: [{name: c, image: busybox}], volumes: [{name: d, persistentVolumeClaim: {claimName: c}}]}\n"));
            await("FailedScheduling", () -> c.event("user", "FailedScheduling") != null);
            assertThat(c.event("user", "FailedScheduling").path("message").asText()).isEqualTo("0/3 nodes are available: pod has "
                    + "unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful "
                    + "for scheduling.");
            ObjectNode pod = c.get("pods", "user");
            assertThat(pod.at("/status/phase").asText()).isEqualTo("Pending");
            assertThat(pod.at("/status/conditions/0/reason").asText()).isEqualTo("Unschedulable");
            assertThat(pod.at("/spec/nodeName").isMissingNode()).isTrue();
        }
    }

    @Test
    void WaitForFirstConsumer_binds_only_once_a_pod_uses_the_claim() throws Exception {
        try (Running c = Running.with(localClass("WaitForFirstConsumer"), volume("v", "local", "1Gi"))) {
            c.create("persistentvolumeclaims", claim("c", "local", "1Gi"));
            await("WaitForFirstConsumer", () -> c.event("c", "WaitForFirstConsumer") != null);
            assertThat(c.controllers.awaitIdle(Running.DEADLINE)).isTrue();
            assertThat(phase(c, "c")).isEqualTo("Pending");
            c.create("pods", Running.yaml("apiVersion: v1\nkind: Pod\nmetadata: {name: user, namespace: default}\n"
                    + "spec: {containers: [{name: c, image: busybox}], volumes: [{name: d, persistentVolumeClaim: {claimName: c}}]}\n"));
            await("c is Bound", () -> phase(c, "c").equals("Bound"));
            c.awaitReady("user");
            assertThat(c.get("persistentvolumeclaims", "c").at("/metadata/annotations/volume.kubernetes.io~1selected-node").asText())
                    .isEqualTo(c.get("pods", "user").at("/spec/nodeName").asText());
        }
    }
}
