package dev.stsresize.sim.controller;

import static dev.stsresize.sim.controller.Running.await;
import static dev.stsresize.sim.controller.Running.uid;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.store.StoreEvent;
import dev.stsresize.sim.store.Subscription;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatefulSetControllerTest {

    @Test
    void creates_claims_named_template_set_ordinal_with_labels_and_protection_and_no_owner_under_retain() {
        try (Running c = Running.with(Running.storageClass("expandable", "online"))) {
            c.create("statefulsets", Running.db("expandable", "1Gi", ""));
            c.awaitReady("db-0", "db-1");
            ObjectNode claim = c.get("persistentvolumeclaims", "data-db-0");
            assertThat(claim.at("/metadata/labels/app").asText()).isEqualTo("db");
            assertThat(claim.at("/metadata/finalizers").toString()).isEqualTo("[\"kubernetes.io/pvc-protection\"]");
            assertThat(claim.at("/metadata/ownerReferences").isMissingNode()).as("Retain: no owner reference").isTrue();
            assertThat(claim.at("/status/phase").asText()).isEqualTo("Bound");
            ObjectNode pod = c.get("pods", "db-1");
            assertThat(pod.at("/spec/volumes/0/persistentVolumeClaim/claimName").asText()).isEqualTo("data-db-1");
            assertThat(pod.at("/metadata/labels/statefulset.kubernetes.io~1pod-name").asText()).isEqualTo("db-1");
            assertThat(pod.at("/metadata/ownerReferences/0/controller").asBoolean()).isTrue();
            assertThat(c.eventReasons("db")).contains("SuccessfulCreate");
            assertThat(c.event("db", "SuccessfulCreate")).isNotNull();
        }
    }

    @Test
    void whenDeleted_Delete_gives_claims_a_controller_reference_to_the_set() {
        try (Running c = Running.with(Running.storageClass("expandable", "online"))) {
            ObjectNode sts = c.create("statefulsets", Running.db("expandable", "1Gi",
                    "persistentVolumeClaimRetentionPolicy: {whenDeleted: Delete, whenScaled: Retain}"));
            ObjectNode claim = Running.awaitValue("claim data-db-0", () -> c.get("persistentvolumeclaims", "data-db-0"));
            JsonNode ref = claim.at("/metadata/ownerReferences/0");
            assertThat(ref.path("uid").asText()).isEqualTo(uid(sts));
            assertThat(ref.path("kind").asText()).isEqualTo("StatefulSet");
            assertThat(ref.path("controller").asBoolean()).isTrue();
            assertThat(ref.path("blockOwnerDeletion").asBoolean()).isTrue();
        }
    }

    @Test
    void OrderedReady_creates_ordinal_0_first_and_the_next_only_once_it_is_ready() {
        try (Running c = Running.with(Running.storageClass("expandable", "online"));
                Subscription events = c.sim.subscribe(e -> e.resource().kind().equals("Pod"), -1)) {
            c.create("statefulsets", Running.db("expandable", "1Gi", ""));
            c.awaitReady("db-0", "db-1");
            long pod0Ready = -1;
            long pod1Added = -1;
            for (StoreEvent e : drain(events)) {
                if (e.name().equals("db-0") && pod0Ready < 0 && ObjectMeta.conditionTrue(e.object(), "Ready")) {
                    pod0Ready = e.resourceVersion();
                }
                if (e.name().equals("db-1") && e.type() == StoreEvent.Type.ADDED) {
                    pod1Added = e.resourceVersion();
                }
            }
            assertThat(pod0Ready).as("db-0 became Ready").isPositive();
            assertThat(pod1Added).as("db-1 is created after db-0 is Ready").isGreaterThan(pod0Ready);
        }
    }

    @Test
    void Parallel_creates_every_pod_without_waiting_for_readiness() {
        try (Running c = Running.with(Running.storageClass("expandable", "online"));
                Subscription events = c.sim.subscribe(e -> e.resource().kind().equals("Pod"), -1)) {
            c.create("statefulsets", Running.db("expandable", "1Gi", "podManagementPolicy: Parallel"));
            c.awaitReady("db-0", "db-1");
            long firstReady = Long.MAX_VALUE;
            long lastAdded = -1;
            for (StoreEvent e : drain(events)) {
                if (ObjectMeta.conditionTrue(e.object(), "Ready")) {
                    firstReady = Math.min(firstReady, e.resourceVersion());
                }
                if (e.type() == StoreEvent.Type.ADDED) {
                    lastAdded = Math.max(lastAdded, e.resourceVersion());
                }
            }
            assertThat(lastAdded).as("both pods exist before any is Ready").isLessThan(firstReady);
        }
    }

    @Test
    void ordinals_start_numbers_pods_and_claims_from_it() {
        try (Running c = Running.with(Running.storageClass("expandable", "online"))) {
            c.create("statefulsets", Running.db("expandable", "1Gi", "ordinals: {start: 3}"));
            c.awaitReady("db-3", "db-4");
            assertThat(c.get("pods", "db-0")).isNull();
            assertThat(c.get("persistentvolumeclaims", "data-db-4")).isNotNull();
            assertThat(c.get("pods", "db-4").at("/metadata/labels/apps.kubernetes.io~1pod-index").asText()).isEqualTo("4");
        }
    }

    @Test
    void status_counts_ready_current_and_updated_replicas_at_one_revision() {
        try (Running c = Running.with(Running.storageClass("expandable", "online"))) {
            c.create("statefulsets", Running.db("expandable", "1Gi", ""));
            c.awaitReady("db-0", "db-1");
            await("status shows 2 ready", () -> c.get("statefulsets", "db").at("/status/readyReplicas").asInt() == 2);
            JsonNode st = c.get("statefulsets", "db").path("status");
            List<ObjectNode> revisions = c.list("controllerrevisions");
            assertThat(revisions).hasSize(1);
            String rev = revisions.get(0).at("/metadata/name").asText();
            assertThat(rev).matches("db-[bcdfghjklmnpqrstvwxz2456789]+");
            assertThat(st.path("currentRevision").asText()).isEqualTo(rev);
            assertThat(st.path("updateRevision").asText()).isEqualTo(rev);
            assertThat(st.path("replicas").asInt()).isEqualTo(2);
            assertThat(st.path("availableReplicas").asInt()).isEqualTo(2);
            assertThat(st.path("currentReplicas").asInt()).isEqualTo(2);
            assertThat(st.path("updatedReplicas").asInt()).isEqualTo(2);
            assertThat(st.path("observedGeneration").asLong()).isEqualTo(1);
            assertThat(st.path("collisionCount").asInt()).isZero();
            assertThat(c.get("pods", "db-0").at("/metadata/labels/controller-revision-hash").asText()).isEqualTo(rev);
            assertThat(revisions.get(0).at("/metadata/labels/controller.kubernetes.io~1hash").asText()).isEqualTo(rev.substring(3));
            assertThat(revisions.get(0).at("/data/spec/template/$patch").asText()).isEqualTo("replace");
            assertThat(revisions.get(0).at("/data/spec/volumeClaimTemplates").isMissingNode()).isTrue();
        }
    }

    @Test
    void the_revision_hash_covers_the_pod_template_and_not_the_claim_templates() {
        ObjectNode small = Running.db("x", "1Gi", "");
        ObjectNode big = Running.db("x", "5Gi", "");
        ObjectNode otherImage = Running.db("x", "1Gi", "");
        ((ObjectNode) otherImage.at("/spec/template/spec/containers/0")).put("image", "postgres:17");
        String h = Revisions.hash(Revisions.data(small), 0);
        assertThat(Revisions.hash(Revisions.data(big), 0)).isEqualTo(h);
        assertThat(Revisions.hash(Revisions.data(otherImage), 0)).isNotEqualTo(h);
        assertThat(Revisions.hash(Revisions.data(small), 1)).as("the collision count changes the hash").isNotEqualTo(h);
    }

    @Test
    void a_deleted_pod_is_recreated_with_a_new_uid_after_its_grace_period() {
        try (Running c = Running.with(Running.storageClass("expandable", "online"))) {
            c.create("statefulsets", Running.db("expandable", "1Gi", ""));
            c.awaitReady("db-0", "db-1");
            String before = uid(c.get("pods", "db-1"));
            ObjectNode terminating = c.delete("pods", "db-1", null, null).object();
            assertThat(terminating.at("/metadata/deletionTimestamp").isMissingNode()).as("the pod terminates first").isFalse();
            assertThat(terminating.at("/metadata/deletionGracePeriodSeconds").asInt()).isEqualTo(30);
            await("db-1 is back with a new UID", () -> {
                ObjectNode p = c.get("pods", "db-1");
                return p != null && !uid(p).equals(before) && c.ready("db-1");
            });
        }
    }

    @Test
    void a_pod_no_set_owns_is_simply_gone_after_deletion() {
        try (Running c = Running.with(Running.storageClass("expandable", "online"))) {
            c.create("pods", Running.yaml("apiVersion: v1\nkind: Pod\nmetadata: {name: lone, namespace: default}\n"
                    + "spec: {containers: [{name: c, image: busybox}]}\n"));
            c.awaitReady("lone");
            c.delete("pods", "lone", null, null);
            await("lone is gone", () -> c.get("pods", "lone") == null);
            assertThat(c.get("pods", "lone")).isNull();
        }
    }

    @Test
    void a_template_change_rolls_pods_highest_ordinal_first_down_to_the_partition() {
        try (Running c = Running.with(Running.storageClass("expandable", "online"))) {
            c.create("statefulsets", Running.db("expandable", "1Gi",
                    "updateStrategy: {type: RollingUpdate, rollingUpdate: {partition: 1}}\nreplicas: 3"));
            c.awaitReady("db-0", "db-1", "db-2");
            String pod0 = uid(c.get("pods", "db-0"));
            String pod1 = uid(c.get("pods", "db-1"));
            c.patch("statefulsets", "db", "{spec: {template: {spec: {containers: [{name: db, image: 'postgres:17'}]}}}}");
            await("db-1 runs postgres:17", () -> c.ready("db-1")
                    && c.get("pods", "db-1").at("/spec/containers/0/image").asText().equals("postgres:17"));
            await("status: 2 updated", () -> c.get("statefulsets", "db").at("/status/updatedReplicas").asInt() == 2);
            ObjectNode pod2 = c.get("pods", "db-2");
            assertThat(pod2.at("/spec/containers/0/image").asText()).isEqualTo("postgres:17");
            assertThat(uid(c.get("pods", "db-1"))).isNotEqualTo(pod1);
            assertThat(uid(c.get("pods", "db-0"))).as("below the partition: untouched").isEqualTo(pod0);
            assertThat(c.get("pods", "db-0").at("/spec/containers/0/image").asText()).isEqualTo("postgres:16");
            JsonNode st = c.get("statefulsets", "db").path("status");
            assertThat(st.path("currentRevision").asText()).isNotEqualTo(st.path("updateRevision").asText());
            assertThat(c.list("controllerrevisions")).hasSize(2);
        }
    }

    @Test
    void minReadySeconds_keeps_a_ready_pod_unavailable_and_OrderedReady_waits_for_availability() {
        try (Running c = Running.with(Running.storageClass("expandable", "online"))) {
            c.create("statefulsets", Running.db("expandable", "1Gi", "minReadySeconds: 3600"));
            c.awaitReady("db-0");
            await("status: 1 ready", () -> c.get("statefulsets", "db").at("/status/readyReplicas").asInt() == 1);
            JsonNode st = c.get("statefulsets", "db").path("status");
            assertThat(st.path("availableReplicas").asInt()).as(st.toString()).isZero();
            assertThat(c.get("pods", "db-1")).as("db-1 waits for db-0 to be available").isNull();
        }
    }

    @Test
    void a_pod_is_available_minReadySeconds_after_it_became_ready() {
        ObjectNode set = Running.db("x", "1Gi", "minReadySeconds: 10");
        ObjectNode pod = Running.yaml("status: {phase: Running, conditions: [{type: Ready, status: 'True',"
                + " lastTransitionTime: '2026-12-03T10:00:00Z'}]}");
        java.time.Instant ready = java.time.Instant.parse("2026-12-03T10:00:00Z");
        assertThat(StatefulSetPods.untilAvailable(set, pod, ready.plusSeconds(3))).isEqualTo(7000);
        assertThat(StatefulSetPods.untilAvailable(set, pod, ready.plusSeconds(10))).isZero();
        assertThat(StatefulSetPods.untilAvailable(Running.db("x", "1Gi", ""), pod, ready)).as("no minReadySeconds").isZero();
        assertThat(StatefulSetPods.untilAvailable(set, Running.yaml("status: {phase: Pending}"), ready)).isNegative();
    }

    @Test
    void old_revisions_beyond_revisionHistoryLimit_are_deleted_oldest_first() {
        try (Running c = Running.with(Running.storageClass("expandable", "online"))) {
            c.create("statefulsets", Running.db("expandable", "1Gi", "revisionHistoryLimit: 1\nreplicas: 1"));
            c.awaitReady("db-0");
            String first = c.list("controllerrevisions").get(0).at("/metadata/name").asText();
            for (String image : List.of("postgres:17", "postgres:18")) {
                c.patch("statefulsets", "db", "{spec: {template: {spec: {containers: [{name: db, image: '" + image + "'}]}}}}");
                await("db-0 runs " + image, () -> c.ready("db-0")
                        && c.get("pods", "db-0").at("/spec/containers/0/image").asText().equals(image));
            }
            await("two revisions left", () -> c.list("controllerrevisions").size() == 2);
            assertThat(c.list("controllerrevisions")).extracting(r -> r.at("/metadata/name").asText()).doesNotContain(first);
        }
    }

    @Test
    void scaling_down_under_whenScaled_Delete_deletes_the_removed_ordinals_claim() {
        try (Running c = Running.with(Running.storageClass("expandable", "online"))) {
            c.create("statefulsets", Running.db("expandable", "1Gi",
                    "persistentVolumeClaimRetentionPolicy: {whenDeleted: Retain, whenScaled: Delete}"));
            c.awaitReady("db-0", "db-1");
            c.patch("statefulsets", "db", "{spec: {replicas: 1}}");
            await("db-1 and its claim are gone", () -> c.get("pods", "db-1") == null
                    && c.get("persistentvolumeclaims", "data-db-1") == null);
            assertThat(c.get("persistentvolumeclaims", "data-db-0")).isNotNull();
        }
    }

    @Test
    void scaling_down_under_whenScaled_Retain_keeps_the_claim() {
        try (Running c = Running.with(Running.storageClass("expandable", "online"))) {
            c.create("statefulsets", Running.db("expandable", "1Gi", ""));
            c.awaitReady("db-0", "db-1");
            c.patch("statefulsets", "db", "{spec: {replicas: 1}}");
            await("db-1 is gone", () -> c.get("pods", "db-1") == null);
            await("status: 1 replica", () -> c.get("statefulsets", "db").at("/status/replicas").asInt() == 1);
            assertThat(c.get("persistentvolumeclaims", "data-db-1")).isNotNull();
            assertThat(c.get("persistentvolumeclaims", "data-db-1").at("/metadata/deletionTimestamp").isMissingNode()).isTrue();
        }
    }

    static List<StoreEvent> drain(Subscription s) {
        List<StoreEvent> out = new ArrayList<>();
        try {
            StoreEvent e;
            while ((e = s.poll(0)) != null) {
                out.add(e);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return out;
    }
}
