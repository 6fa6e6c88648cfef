package dev.stsresize.sim.controller;

import static dev.stsresize.sim.controller.Running.await;
import static dev.stsresize.sim.controller.Running.uid;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.patch.Patches;
import dev.stsresize.sim.registry.Registry;
import dev.stsresize.sim.registry.WriteOptions;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The reference's "Re-applying": orphan delete, then a server-side apply of the grown StatefulSet. */
class ReapplyTest {

    static ObjectNode orphanAndReapply(Running c, String extra, String newSize) {
        ObjectNode old = c.get("statefulsets", "db");
        c.delete("statefulsets", "db", "Orphan", uid(old));
        await("the old set is gone", () -> c.get("statefulsets", "db") == null);
        Registry.Written w = c.registry().patch(c.type("statefulsets"), "default", "db", "", Patches.Type.APPLY,
                Running.db("expandable", newSize, extra), WriteOptions.by("kubectl"));
        assertThat(w.created()).isTrue();
        assertThat(uid(w.object())).isNotEqualTo(uid(old));
        return w.object();
    }

    @Test
    void re_apply_adopts_the_same_pods_and_the_revision_and_re_adds_claim_references_under_whenDeleted_Delete() {
        try (Running c = GarbageCollectorTest.settledDb(GarbageCollectorTest.DELETE_WITH_SET)) {
            Map<String, String> pods = GarbageCollectorTest.uids(c, "pods");
            Map<String, String> claims = GarbageCollectorTest.uids(c, "persistentvolumeclaims");
            Map<String, String> revisions = GarbageCollectorTest.uids(c, "controllerrevisions");
            ObjectNode sts = orphanAndReapply(c, GarbageCollectorTest.DELETE_WITH_SET, "2Gi");
            String setUid = uid(sts);
            await("pods, claims and the revision point at the new set", () ->
                    GarbageCollectorTest.dependentsOf(c, setUid).size() == 5);
            assertThat(GarbageCollectorTest.uids(c, "pods")).as("pods adopted, not recreated").isEqualTo(pods);
            assertThat(GarbageCollectorTest.uids(c, "persistentvolumeclaims")).isEqualTo(claims);
            assertThat(GarbageCollectorTest.uids(c, "controllerrevisions")).as("the revision adopted, no new one").isEqualTo(revisions);
            for (ObjectNode p : c.list("pods")) {
                JsonNode ref = ObjectMeta.controllerRef(p);
                assertThat(ref.path("uid").asText()).isEqualTo(setUid);
            }
            String rev = revisions.keySet().iterator().next();
            await("status at the adopted revision", () -> rev.equals(c.get("statefulsets", "db").at("/status/updateRevision").asText())
                    && c.get("statefulsets", "db").at("/status/readyReplicas").asInt() == 2);
            JsonNode st = c.get("statefulsets", "db").path("status");
            assertThat(st.path("currentRevision").asText()).isEqualTo(rev);
            assertThat(st.path("replicas").asInt()).isEqualTo(2);
            assertThat(st.path("currentReplicas").asInt()).isEqualTo(2);
            assertThat(st.path("updatedReplicas").asInt()).isEqualTo(2);
            assertThat(st.path("observedGeneration").asInt()).isEqualTo(1);
            assertThat(st.path("collisionCount").asInt()).isZero();
        }
    }

    @Test
    void with_pods_pending_the_re_applied_status_is_the_reference_one() {
        ObjectNode local = Running.yaml("apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: expandable}\n"
                + "provisioner: kubernetes.io/no-provisioner\nallowVolumeExpansion: true\n");
        try (Running c = Running.with(local)) {
            // no volume can be bound, so the pods stay Pending, as on the reference cluster without a kubelet
            c.create("statefulsets", Running.db("expandable", "1Gi", "podManagementPolicy: Parallel"));
            await("both pods exist", () -> c.list("pods").size() == 2);
            ObjectNode sts = orphanAndReapply(c, "podManagementPolicy: Parallel", "2Gi");
            String rev = c.list("controllerrevisions").get(0).at("/metadata/name").asText();
            await("the pods are adopted", () -> GarbageCollectorTest.dependentsOf(c, uid(sts)).size() == 3);
            await("status written", () -> c.get("statefulsets", "db").at("/status/updatedReplicas").asInt() == 2);
            JsonNode status = c.get("statefulsets", "db").path("status");
            JsonNode reference = Running.yaml(("{availableReplicas: 0, collisionCount: 0, currentReplicas: 2, currentRevision: REV,"
                    + " observedGeneration: 1, replicas: 2, updateRevision: REV, updatedReplicas: 2}").replace("REV", rev));
            assertThat(ObjectMeta.same(status, reference)).as(status + " is " + reference).isTrue();
        }
    }

    @Test
    void re_apply_with_a_bigger_claim_template_does_not_resize_existing_claims() throws Exception {
        try (Running c = GarbageCollectorTest.settledDb("")) {
            orphanAndReapply(c, "", "5Gi");
            await("the pods are adopted", () -> c.list("pods").stream().allMatch(p -> ObjectMeta.controllerRef(p) != null));
            assertThat(c.controllers.awaitIdle(Running.DEADLINE)).isTrue();
            for (ObjectNode claim : c.list("persistentvolumeclaims")) {
                assertThat(claim.at("/spec/resources/requests/storage").asText()).as(ObjectMeta.name(claim)).isEqualTo("1Gi");
                assertThat(claim.at("/status/capacity/storage").asText()).isEqualTo("1Gi");
            }
        }
    }

    @Test
    void after_a_re_apply_only_claims_created_later_use_the_new_template_size() {
        try (Running c = GarbageCollectorTest.settledDb("")) {
            orphanAndReapply(c, "replicas: 3", "5Gi");
            await("db-2 runs", () -> c.ready("db-2"));
            assertThat(c.get("persistentvolumeclaims", "data-db-2").at("/spec/resources/requests/storage").asText()).isEqualTo("5Gi");
            assertThat(c.get("persistentvolumeclaims", "data-db-0").at("/spec/resources/requests/storage").asText()).isEqualTo("1Gi");
        }
    }
}
