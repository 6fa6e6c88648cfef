package dev.stsresize.sim.controller;

import static dev.stsresize.sim.controller.Running.await;
import static dev.stsresize.sim.controller.Running.uid;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.registry.Registry;
import dev.stsresize.sim.store.StoreEvent;
import dev.stsresize.sim.store.Subscription;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class GarbageCollectorTest {
    static final String DELETE_WITH_SET = "persistentVolumeClaimRetentionPolicy: {whenDeleted: Delete, whenScaled: Retain}";

    static Running settledDb(String extra) {
        Running c = Running.with(Running.storageClass("expandable", "online"));
        c.create("statefulsets", Running.db("expandable", "1Gi", extra));
        c.awaitReady("db-0", "db-1");
        await("status shows 2 ready", () -> c.get("statefulsets", "db").at("/status/readyReplicas").asInt() == 2);
        return c;
    }

    /** Every object in the cluster whose owner references name {@code uid}, as kind/name. */
    static List<String> dependentsOf(Running c, String uid) {
        List<String> out = new ArrayList<>();
        for (String r : List.of("pods", "persistentvolumeclaims", "controllerrevisions")) {
            for (ObjectNode o : c.list(r)) {
                if (ObjectMeta.ownedBy(o, uid)) {
                    out.add(r + "/" + ObjectMeta.name(o));
                }
            }
        }
        return out;
    }

    static Map<String, String> uids(Running c, String resource) {
        Map<String, String> out = new TreeMap<>();
        c.list(resource).forEach(o -> out.put(ObjectMeta.name(o), uid(o)));
        return out;
    }

    @Test
    void orphan_delete_shows_MODIFIED_MODIFIED_DELETED_and_no_reference_is_left_when_the_set_is_gone() throws Exception {
        try (Running c = settledDb(DELETE_WITH_SET)) {
            ObjectNode sts = c.get("statefulsets", "db");
            String setUid = uid(sts);
            assertThat(dependentsOf(c, setUid)).hasSize(5); // 2 pods, 2 claims, 1 revision
            Map<String, String> pods = uids(c, "pods");
            Map<String, String> claims = uids(c, "persistentvolumeclaims");
            List<String> seen = new ArrayList<>();
            List<String> leftAtDeletion = new ArrayList<>();
            try (Subscription watch = c.sim.subscribe(e -> e.resource().kind().equals("StatefulSet"), -1)) {
                Registry.Deleted d = c.delete("statefulsets", "db", "Orphan", setUid);
                assertThat(d.gone()).isFalse();
                assertThat(d.object().at("/metadata/finalizers").toString()).isEqualTo("[\"orphan\"]");
                while (seen.isEmpty() || !seen.get(seen.size() - 1).equals("DELETED")) {
                    StoreEvent e = watch.poll(Running.DEADLINE.toMillis());
                    assertThat(e).as("a watch event after " + seen).isNotNull();
                    seen.add(e.type().name());
                    if (e.type() == StoreEvent.Type.DELETED) {
                        leftAtDeletion.addAll(dependentsOf(c, setUid));
                    }
                }
            }
            assertThat(seen).containsExactly("MODIFIED", "MODIFIED", "DELETED");
            assertThat(leftAtDeletion).as("owner references left when the set was deleted").isEmpty();
            assertThat(uids(c, "pods")).as("pods keep their UIDs").isEqualTo(pods);
            assertThat(uids(c, "persistentvolumeclaims")).as("claims keep their UIDs").isEqualTo(claims);
            assertThat(c.list("controllerrevisions")).hasSize(1);
        }
    }

    @Test
    void background_delete_removes_the_pods_and_the_claims_that_carry_the_owner_reference() {
        try (Running c = settledDb(DELETE_WITH_SET)) {
            c.delete("statefulsets", "db", "Background", null);
            await("pods, claims and revisions are gone", () -> c.list("pods").isEmpty()
                    && c.list("persistentvolumeclaims").isEmpty() && c.list("controllerrevisions").isEmpty());
            await("their volumes are deleted (reclaimPolicy Delete)", () -> c.list("persistentvolumes").isEmpty());
        }
    }

    @Test
    void background_delete_under_retain_keeps_the_claims() {
        try (Running c = settledDb("")) {
            Map<String, String> claims = uids(c, "persistentvolumeclaims");
            c.delete("statefulsets", "db", "Background", null);
            await("pods are gone", () -> c.list("pods").isEmpty());
            assertThat(uids(c, "persistentvolumeclaims")).isEqualTo(claims);
        }
    }

    @Test
    void foreground_delete_keeps_the_set_until_its_pods_are_gone() throws Exception {
        try (Running c = settledDb("")) {
            List<Long> podDeletions = new ArrayList<>();
            long setDeleted = -1;
            try (Subscription watch = c.sim.subscribe(e -> e.type() == StoreEvent.Type.DELETED, -1)) {
                c.delete("statefulsets", "db", "Foreground", null);
                assertThat(c.get("statefulsets", "db").at("/metadata/finalizers").toString()).contains("foregroundDeletion");
                while (setDeleted < 0) {
                    StoreEvent e = watch.poll(Running.DEADLINE.toMillis());
                    assertThat(e).as("a DELETED event").isNotNull();
                    if (e.resource().kind().equals("Pod")) {
                        podDeletions.add(e.resourceVersion());
                    } else if (e.resource().kind().equals("StatefulSet")) {
                        setDeleted = e.resourceVersion();
                    }
                }
            }
            long setGone = setDeleted;
            assertThat(podDeletions).hasSize(2).allMatch(rv -> rv < setGone);
        }
    }

    @Test
    void with_kube_controller_manager_down_an_orphan_delete_stays_terminating_until_it_is_back_then_the_set_is_gone() throws Exception {
        try (Running c = settledDb("")) {
            String setUid = uid(c.get("statefulsets", "db"));
            Map<String, String> pods = uids(c, "pods");
            c.controllers.outage(ControllerManager.KUBE_CONTROLLER_MANAGER, java.time.Duration.ZERO, java.time.Duration.ofSeconds(2));
            Registry.Deleted d = c.delete("statefulsets", "db", "Orphan", setUid);
            assertThat(d.gone()).isFalse();
            Thread.sleep(300); // the garbage collector acts within milliseconds at this speed when it runs
            ObjectNode held = c.get("statefulsets", "db");
            assertThat(held).as("still there while the garbage collector is down").isNotNull();
            assertThat(held.at("/metadata/finalizers").toString()).isEqualTo("[\"orphan\"]");
            assertThat(dependentsOf(c, setUid)).as("its dependents still point at it").isNotEmpty();
            await("gone once kube-controller-manager is back", () -> c.get("statefulsets", "db") == null);
            assertThat(dependentsOf(c, setUid)).isEmpty();
            assertThat(uids(c, "pods")).as("pods keep their UIDs").isEqualTo(pods);
        }
    }

    @Test
    void an_outage_names_a_known_component() {
        try (Running c = Running.with()) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> c.controllers.outage("etcd", java.time.Duration.ZERO,
                    java.time.Duration.ofSeconds(1))).hasMessageContaining("the components are csi-resizer, kube-controller-manager, kubelet");
        }
    }
}
