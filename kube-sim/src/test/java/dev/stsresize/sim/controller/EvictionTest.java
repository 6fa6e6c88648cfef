package dev.stsresize.sim.controller;

import static dev.stsresize.sim.controller.Running.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import org.junit.jupiter.api.Test;

class EvictionTest {
    static ObjectNode budget(String spec) {
        return Running.yaml("apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: db, namespace: default}\n"
                + "spec: {selector: {matchLabels: {app: db}}, " + spec + "}\n");
    }

    static void evict(Running c, String pod) {
        c.registry().evict(c.type("pods"), "default", pod, Running.yaml("apiVersion: policy/v1\nkind: Eviction\n"
                + "metadata: {name: " + pod + ", namespace: default}\n"), false);
    }

    @Test
    void eviction_is_refused_with_429_while_the_budget_has_no_disruption_left() {
        try (Running c = GarbageCollectorTest.settledDb("")) {
            c.create("poddisruptionbudgets", budget("minAvailable: 2"));
            await("the budget is processed", () -> c.get("poddisruptionbudgets", "db").at("/status/currentHealthy").asInt() == 2);
            ApiError e = catchThrowableOfType(() -> evict(c, "db-1"), ApiError.class);
            assertThat(e).as("eviction of db-1").isNotNull();
            assertThat(e.code()).isEqualTo(429);
            assertThat(e.status().path("message").asText()).isEqualTo("Cannot evict pod as it would violate the pod's disruption budget.");
            assertThat(e.status().path("reason").asText()).isEqualTo("TooManyRequests");
            assertThat(e.status().at("/details/causes/0/reason").asText()).isEqualTo("DisruptionBudget");
            assertThat(e.status().at("/details/causes/0/message").asText())
                    .isEqualTo("The disruption budget db needs 2 healthy pods and has 2 currently");
            assertThat(c.ready("db-1")).as("the pod still runs").isTrue();
        }
    }

    @Test
    void an_eviction_spends_the_budget_so_a_second_one_waits_until_the_pod_is_back() {
        try (Running c = GarbageCollectorTest.settledDb("")) {
            c.create("poddisruptionbudgets", budget("maxUnavailable: 1"));
            await("one disruption allowed", () -> c.get("poddisruptionbudgets", "db").at("/status/disruptionsAllowed").asInt() == 1);
            String before = Running.uid(c.get("pods", "db-1"));
            c.patch("pods", "db-1", "{metadata: {finalizers: [test.example/hold]}}"); // keeps it Terminating until the test lets go
            evict(c, "db-1");
            ApiError second = catchThrowableOfType(() -> evict(c, "db-0"), ApiError.class);
            assertThat(second).as("a second eviction while db-1 terminates").isNotNull();
            assertThat(second.code()).isEqualTo(429);
            c.patch("pods", "db-1", "{metadata: {finalizers: null}}");
            await("db-1 is back", () -> c.ready("db-1") && !Running.uid(c.get("pods", "db-1")).equals(before));
            await("the budget recovers", () -> c.get("poddisruptionbudgets", "db").at("/status/disruptionsAllowed").asInt() == 1);
            evict(c, "db-0");
            await("db-0 terminates", () -> !c.ready("db-0"));
        }
    }

    @Test
    void a_budget_with_an_empty_selector_covers_every_pod_of_its_namespace() {
        try (Running c = GarbageCollectorTest.settledDb("")) {
            c.create("poddisruptionbudgets", Running.yaml("apiVersion: policy/v1\nkind: PodDisruptionBudget\n"
                    + "metadata: {name: all, namespace: default}\nspec: {selector: {}, minAvailable: 2}\n"));
            await("the budget counts both pods", () -> c.get("poddisruptionbudgets", "all").at("/status/currentHealthy").asInt() == 2);
            ApiError e = catchThrowableOfType(() -> evict(c, "db-0"), ApiError.class);
            assertThat(e).isNotNull();
            assertThat(e.code()).isEqualTo(429);
        }
    }

    @Test
    void a_pod_no_budget_covers_is_evicted_at_once() {
        try (Running c = GarbageCollectorTest.settledDb("")) {
            c.patch("pods", "db-0", "{metadata: {finalizers: [test.example/hold]}}"); // keeps it Terminating to look at
            evict(c, "db-0");
            assertThat(c.get("pods", "db-0").at("/metadata/deletionTimestamp").isMissingNode()).isFalse();
            c.patch("pods", "db-0", "{metadata: {finalizers: null}}");
        }
    }

    @Test
    void a_pod_evicted_while_its_StatefulSet_is_orphan_deleted_is_not_recreated() throws Exception {
        try (Running c = GarbageCollectorTest.settledDb("")) {
            String setUid = Running.uid(c.get("statefulsets", "db"));
            c.delete("statefulsets", "db", "Orphan", setUid);
            await("db is gone, its pods orphaned", () -> c.get("statefulsets", "db") == null
                    && c.get("pods", "db-1").at("/metadata/ownerReferences").isMissingNode());
            evict(c, "db-1");
            await("db-1 is gone", () -> c.get("pods", "db-1") == null);
            assertThat(c.controllers.awaitIdle(Running.DEADLINE)).isTrue();
            assertThat(c.get("pods", "db-1")).as("nothing owns db-1 any more").isNull();
            assertThat(c.ready("db-0")).as("the other pod serves on").isTrue();
            assertThat(c.get("persistentvolumeclaims", "data-db-1")).as("its claim stays").isNotNull();

            c.create("statefulsets", Running.db("expandable", "1Gi", "")); // re-applied: the controller makes db-1 again
            c.awaitReady("db-1");
        }
    }
}
