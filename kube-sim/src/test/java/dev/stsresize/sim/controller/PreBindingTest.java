package dev.stsresize.sim.controller;

import static dev.stsresize.sim.controller.Running.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import org.junit.jupiter.api.Test;

/**
 * What the copy migration relies on from the PV controller (pv_controller.go) and the PV's update
 * validation: pre-bound claims and PVs, Released under Retain, a claimRef re-pointed or removed.
 */
class PreBindingTest {
    static final String CLASS = "local";

    static ObjectNode claimNaming(String name, String volume, String size) {
        return Running.yaml("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: " + name + ", namespace: default}\n"
                + "spec: {storageClassName: " + CLASS + ", volumeName: " + volume + ", accessModes: [ReadWriteOnce],"
                + " resources: {requests: {storage: " + size + "}}}\n");
    }

    static ObjectNode volumeFor(String name, String size, String claim) {
        return Running.yaml("apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: " + name + "}\n"
                + "spec: {storageClassName: " + CLASS + ", accessModes: [ReadWriteOnce], capacity: {storage: " + size + "},"
                + " persistentVolumeReclaimPolicy: Retain, local: {path: /mnt/" + name + "},"
                + " claimRef: {namespace: default, name: " + claim + "}}\n");
    }

    static String pvPhase(Running c, String pv) {
        return c.get("persistentvolumes", pv).at("/status/phase").asText();
    }

    static void patchVolume(Running c, String pv, String mergePatch) {
        c.registry().patch(c.type("persistentvolumes"), "", pv, "", dev.stsresize.sim.patch.Patches.Type.MERGE,
                Running.yaml(mergePatch), dev.stsresize.sim.registry.WriteOptions.by("kubectl-patch"));
    }

    /** FAST with the claim's status a second and a half behind its PV's. */
    static final Timings LAGGING = new Timings(0, 2, 1, 2, 2, 5, 2, 3, 3, 5, 1500, 6);

    @Test
    void a_claim_that_names_an_Available_volume_binds_and_shows_Bound_after_the_volume_does() throws Exception {
        try (Running c = Running.with(LAGGING, VolumeBinderTest.localClass("Immediate"), VolumeBinderTest.volume("pv-new", CLASS, "20Gi"))) {
            await("pv-new is Available", () -> pvPhase(c, "pv-new").equals("Available"));
            ObjectNode claim = c.create("persistentvolumeclaims", claimNaming("data", "pv-new", "20Gi"));
            await("pv-new is Bound", () -> pvPhase(c, "pv-new").equals("Bound"));
            // a client that waits for the PV, then uses the claim, meets it still Pending
            Thread.sleep(300); // a client that looks again a little later still meets it Pending
            ObjectNode early = c.get("persistentvolumeclaims", "data");
            assertThat(early.at("/status/phase").asText()).as("the claim when its PV shows Bound").isEqualTo("Pending");
            assertThat(early.at("/metadata/annotations/pv.kubernetes.io~1bind-completed").asText()).isEqualTo("yes");
            await("data is Bound", () -> VolumeBinderTest.phase(c, "data").equals("Bound"));
            ObjectNode pv = c.get("persistentvolumes", "pv-new");
            assertThat(pv.at("/spec/claimRef/uid").asText()).isEqualTo(Running.uid(claim));
            assertThat(pv.at("/spec/claimRef/resourceVersion").asText()).isNotEmpty();
            assertThat(pv.at("/metadata/annotations/pv.kubernetes.io~1bound-by-controller").asText())
                    .as("the PV was not pre-bound: the controller chose to bind it").isEqualTo("yes");
            assertThat(c.get("persistentvolumeclaims", "data").at("/status/capacity/storage").asText()).isEqualTo("20Gi");
        }
    }

    @Test
    void a_claim_that_names_a_volume_bound_to_another_claim_stays_Pending() throws Exception {
        try (Running c = Running.with(VolumeBinderTest.localClass("Immediate"), VolumeBinderTest.volume("pv-a", CLASS, "1Gi"))) {
            c.create("persistentvolumeclaims", claimNaming("a", "pv-a", "1Gi"));
            await("a is Bound", () -> VolumeBinderTest.phase(c, "a").equals("Bound"));
            c.create("persistentvolumeclaims", claimNaming("b", "pv-a", "1Gi"));
            await("FailedBinding", () -> c.event("b", "FailedBinding") != null);
            assertThat(c.event("b", "FailedBinding").path("message").asText()).isEqualTo("volume \"pv-a\" already bound to a different claim.");
            assertThat(c.event("b", "FailedBinding").path("type").asText()).isEqualTo("Warning");
            assertThat(c.controllers.awaitIdle(Running.DEADLINE)).isTrue();
            assertThat(VolumeBinderTest.phase(c, "b")).isEqualTo("Pending");
            assertThat(c.get("persistentvolumes", "pv-a").at("/spec/claimRef/name").asText()).isEqualTo("a");
        }
    }

    @Test
    void a_volume_pre_bound_by_claimRef_goes_only_to_the_claim_it_names() throws Exception {
        try (Running c = Running.with(VolumeBinderTest.localClass("Immediate"), volumeFor("pv-b", "5Gi", "b"))) {
            await("pv-b is Available", () -> pvPhase(c, "pv-b").equals("Available"));
            c.create("persistentvolumeclaims", VolumeBinderTest.claim("other", CLASS, "1Gi"));
            await("other finds no volume", () -> c.event("other", "ProvisioningFailed") != null);
            assertThat(c.controllers.awaitIdle(Running.DEADLINE)).isTrue();
            assertThat(VolumeBinderTest.phase(c, "other")).isEqualTo("Pending");
            ObjectNode b = c.create("persistentvolumeclaims", VolumeBinderTest.claim("b", CLASS, "1Gi"));
            await("b is Bound", () -> VolumeBinderTest.phase(c, "b").equals("Bound"));
            assertThat(c.get("persistentvolumeclaims", "b").at("/spec/volumeName").asText()).isEqualTo("pv-b");
            assertThat(c.get("persistentvolumes", "pv-b").at("/spec/claimRef/uid").asText()).isEqualTo(Running.uid(b));
            assertThat(c.get("persistentvolumes", "pv-b").at("/metadata/annotations/pv.kubernetes.io~1bound-by-controller")
                    .isMissingNode()).as("pre-bound by the user").isTrue();
            assertThat(VolumeBinderTest.phase(c, "other")).isEqualTo("Pending");
        }
    }

    /** Deletes claim {@code name} (no pod uses it, so pvc-protection lets it go) and waits until its PV is Released. */
    static void deleteClaim(Running c, String name, String pv) {
        ObjectNode claim = c.get("persistentvolumeclaims", name);
        c.delete("persistentvolumeclaims", name, null, Running.uid(claim));
        await(name + " is gone", () -> c.get("persistentvolumeclaims", name) == null);
        await(pv + " is Released", () -> pvPhase(c, pv).equals("Released"));
    }

    @Test
    void a_Retain_volume_whose_claim_is_deleted_stays_Released_and_unused_until_its_claimRef_is_re_pointed() throws Exception {
        try (Running c = Running.with(VolumeBinderTest.localClass("Immediate"), VolumeBinderTest.volume("pv-new", CLASS, "20Gi"))) {
            ObjectNode tmp = c.create("persistentvolumeclaims", claimNaming("tmp", "pv-new", "20Gi"));
            await("tmp is Bound", () -> VolumeBinderTest.phase(c, "tmp").equals("Bound"));
            deleteClaim(c, "tmp", "pv-new");
            assertThat(c.get("persistentvolumes", "pv-new").at("/spec/claimRef/uid").asText())
                    .as("a Released volume keeps its claimRef").isEqualTo(Running.uid(tmp));

            c.create("persistentvolumeclaims", VolumeBinderTest.claim("stranger", CLASS, "1Gi"));
            c.create("persistentvolumeclaims", claimNaming("tmp", "pv-new", "20Gi"));
            await("tmp (again) is told", () -> c.list("events").stream().anyMatch(e -> e.at("/involvedObject/name").asText().equals("tmp")
                    && e.path("reason").asText().equals("FailedBinding")));
            assertThat(c.controllers.awaitIdle(Running.DEADLINE)).isTrue();
            assertThat(pvPhase(c, "pv-new")).isEqualTo("Released");
            assertThat(VolumeBinderTest.phase(c, "stranger")).isEqualTo("Pending");
            assertThat(VolumeBinderTest.phase(c, "tmp")).as("a new claim of the old name is another claim").isEqualTo("Pending");

            // the copy's step 6: the claimRef re-pointed to {namespace, name} with no uid nor resourceVersion
            patchVolume(c, "pv-new", "{spec: {claimRef: {name: data, uid: null, resourceVersion: null}}}");
            await("pv-new is Available", () -> pvPhase(c, "pv-new").equals("Available"));
            assertThat(c.controllers.awaitIdle(Running.DEADLINE)).isTrue();
            assertThat(VolumeBinderTest.phase(c, "stranger")).as("a pre-bound volume is for its claim only").isEqualTo("Pending");
            ObjectNode data = c.create("persistentvolumeclaims", claimNaming("data", "pv-new", "20Gi"));
            await("data is Bound", () -> VolumeBinderTest.phase(c, "data").equals("Bound"));
            assertThat(c.get("persistentvolumes", "pv-new").at("/spec/claimRef/uid").asText()).isEqualTo(Running.uid(data));
            assertThat(c.get("persistentvolumes", "pv-new")).as("never deleted").isNotNull();
        }
    }

    @Test
    void a_Released_volume_whose_claimRef_is_removed_is_taken_by_any_claim_of_its_class() {
        try (Running c = Running.with(VolumeBinderTest.localClass("Immediate"), VolumeBinderTest.volume("pv-new", CLASS, "20Gi"))) {
            c.create("persistentvolumeclaims", claimNaming("tmp", "pv-new", "20Gi"));
            await("tmp is Bound", () -> VolumeBinderTest.phase(c, "tmp").equals("Bound"));
            deleteClaim(c, "tmp", "pv-new");
            c.create("persistentvolumeclaims", VolumeBinderTest.claim("stranger", CLASS, "1Gi"));
            patchVolume(c, "pv-new", "{spec: {claimRef: null}}");
            await("stranger took pv-new", () -> VolumeBinderTest.phase(c, "stranger").equals("Bound"));
            assertThat(c.get("persistentvolumeclaims", "stranger").at("/spec/volumeName").asText()).isEqualTo("pv-new");
        }
    }

    @Test
    void a_Delete_volume_whose_claim_is_deleted_is_deleted() {
        try (Running c = Running.with(Running.storageClass("csi", "online"))) {
            ObjectNode claim = c.create("persistentvolumeclaims", VolumeBinderTest.claim("tmp", "csi", "1Gi"));
            await("tmp is Bound", () -> VolumeBinderTest.phase(c, "tmp").equals("Bound"));
            String pv = "pvc-" + Running.uid(claim);
            c.delete("persistentvolumeclaims", "tmp", null, Running.uid(claim));
            await(pv + " is deleted", () -> c.get("persistentvolumes", pv) == null);
        }
    }

    @Test
    void the_reclaim_policy_and_the_claimRef_of_a_volume_may_be_patched_its_source_and_mode_not() {
        try (Running c = Running.with(VolumeBinderTest.localClass("Immediate"), VolumeBinderTest.volume("pv", CLASS, "1Gi"))) {
            patchVolume(c, "pv", "{spec: {persistentVolumeReclaimPolicy: Delete, claimRef: {namespace: default, name: data}}}");
            patchVolume(c, "pv", "{spec: {persistentVolumeReclaimPolicy: Retain}}");
            assertThat(c.get("persistentvolumes", "pv").at("/spec/persistentVolumeReclaimPolicy").asText()).isEqualTo("Retain");
            assertThat(c.get("persistentvolumes", "pv").at("/spec/claimRef/name").asText()).isEqualTo("data");

            ApiError source = catchThrowableOfType(() -> patchVolume(c, "pv", "{spec: {local: {path: /mnt/elsewhere}}}"), ApiError.class);
            assertThat(source).as("a changed volume source").isNotNull();
            assertThat(source.code()).isEqualTo(422);
            assertThat(source.status().path("message").asText()).startsWith("PersistentVolume \"pv\" is invalid: spec.persistentvolumesource: "
                    + "Forbidden: spec.persistentvolumesource is immutable after creation\n  core.PersistentVolumeSource{\n");
            ApiError mode = catchThrowableOfType(() -> patchVolume(c, "pv", "{spec: {volumeMode: Block}}"), ApiError.class);
            assertThat(mode).as("a changed volumeMode").isNotNull();
            assertThat(mode.status().path("message").asText())
                    .isEqualTo("PersistentVolume \"pv\" is invalid: volumeMode: Invalid value: \"Block\": field is immutable");
            ApiError policy = catchThrowableOfType(() -> patchVolume(c, "pv", "{spec: {persistentVolumeReclaimPolicy: Keep}}"), ApiError.class);
            assertThat(policy).as("an unknown reclaim policy").isNotNull();
            assertThat(policy.status().path("message").asText()).isEqualTo("PersistentVolume \"pv\" is invalid: "
                    + "spec.persistentVolumeReclaimPolicy: Unsupported value: \"Keep\": supported values: \"Delete\", \"Recycle\", \"Retain\"");
            assertThat(c.get("persistentvolumes", "pv").at("/spec/local/path").asText()).isEqualTo("/mnt/pv");
        }
    }
}
