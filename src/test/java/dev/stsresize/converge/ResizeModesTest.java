package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.plan.Quantity;
import dev.stsresize.sim.fault.Fault;
import dev.stsresize.sim.fault.FaultRule;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Offline, infeasible and never-scaling converges; a failing re-apply restoring the backup. */
class ResizeModesTest {
    @TempDir Path home;

    static StatefulSetResult converge(Harness h, ObjectNode declared, ConvergeOptions opts) {
        Assessment a = new Assessor(h.cluster(), h.events::add).assess(List.of(declared), false, Assessor.Depth.APPLY,
                opts.restartPodsForResize(), Optional.empty());
        return h.converger().converge(a.items().get(0), opts, true);
    }

    static Map<String, String> podUids(Harness h, String ns, String sts, int n) {
        Map<String, String> out = new HashMap<>();
        for (int i = 0; i < n; i++) {
            out.put(sts + "-" + i, Harness.uid(h.pod(ns, sts + "-" + i)));
        }
        return out;
    }

    @Test
    void offline_resize_without_restart_converges_and_says_which_pods_to_restart() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            Map<String, String> before = podUids(h, "analytics", "clickhouse", 2);
            StatefulSetResult r = converge(h, Demo.declared("clickhouse"), Harness.options());
            assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
            assertThat(r.warnings()).anySatisfy(w -> assertThat(w).contains("file system resize", "on pod clickhouse-0", "restart the pod"));
            assertThat(r.claims()).allSatisfy(c -> assertThat(c.capacity()).isEqualTo("50Gi"));
            assertThat(podUids(h, "analytics", "clickhouse", 2)).isEqualTo(before);
        }
    }

    @Test
    void offline_resize_with_restart_evicts_each_pod_after_adoption_and_reaches_the_capacity() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            Map<String, String> before = podUids(h, "analytics", "clickhouse", 2);
            StatefulSetResult r = converge(h, Demo.declared("clickhouse"), Harness.options().withRestartPodsForResize(true));
            assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
            assertThat(r.warnings()).isEmpty();
            assertThat(r.claims()).allSatisfy(c -> assertThat(c.capacity()).isEqualTo("100Gi"));
            Map<String, String> after = podUids(h, "analytics", "clickhouse", 2);
            assertThat(after.get("clickhouse-0")).isNotEqualTo(before.get("clickhouse-0"));
            // evictions only after the re-apply (the StatefulSet then existed to recreate the pods)
            var log = h.sim.requests();
            int reapply = -1;
            int firstEviction = -1;
            for (int i = 0; i < log.size(); i++) {
                var q = log.get(i);
                if (reapply < 0 && q.method().equals("PATCH") && "statefulsets".equals(q.resource()) && !q.dryRun()) {
                    reapply = i;
                }
                if (firstEviction < 0 && q.path().endsWith("/eviction")) {
                    firstEviction = i;
                }
            }
            assertThat(firstEviction).isGreaterThan(reapply).isGreaterThan(0);
        }
    }

    @Test
    void an_infeasible_resize_is_reported_and_nothing_is_deleted() {
        try (Harness h = Harness.start(home, Demo.clusterWith("StorageClass", "fast-online",
                sc -> ((ObjectNode) sc.path("metadata").path("annotations")).put("sim.stsresize.dev/resizer", "infeasible")))) {
            StatefulSetResult r = converge(h, Demo.declared("postgres"), Harness.options());
            assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.FAILED);
            assertThat(r.reason()).isEqualTo("resize-infeasible");
            assertThat(r.detail()).contains("exceeds the largest volume", "Nothing was deleted");
            assertThat(h.sim.requests()).noneMatch(q -> q.method().equals("DELETE") && "statefulsets".equals(q.resource()) && !q.dryRun());
            assertThat(h.journal.all()).isEmpty();
        }
    }

    @Test
    void a_resize_that_does_not_finish_in_time_stops_before_the_delete() {
        try (Harness h = Harness.start(home, Demo.clusterWith("StorageClass", "fast-online",
                sc -> ((ObjectNode) sc.path("metadata").path("annotations")).put("sim.stsresize.dev/resizer", "none")))) {
            StatefulSetResult r = converge(h, Demo.declared("postgres"), Harness.options().withTimeout(java.time.Duration.ofMillis(800)));
            assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.FAILED);
            assertThat(r.reason()).isEqualTo("resize-timeout");
            assertThat(r.detail()).contains("Nothing was deleted");
            assertThat(h.sim.requests()).noneMatch(q -> q.method().equals("DELETE") && "statefulsets".equals(q.resource()) && !q.dryRun());
            // --wait-for-resize=false goes on once the requests are accepted
            StatefulSetResult go = converge(h, Demo.declared("postgres"), Harness.options().withWaitForResize(false));
            assertThat(go.outcome()).as(go.detail()).isEqualTo(Outcome.CONVERGED);
        }
    }

    @Test
    void a_run_that_does_not_wait_for_the_resize_says_from_each_claim_that_its_volume_has_not_grown() {
        try (Harness h = Harness.start(home, Demo.clusterWith("StorageClass", "fast-online",
                sc -> ((ObjectNode) sc.path("metadata").path("annotations")).put("sim.stsresize.dev/resizer", "none")))) {
            // no resizer, as a cluster without the CSI external-resizer: the requests are accepted, capacity never moves
            StatefulSetResult r = converge(h, Demo.declared("postgres"), Harness.options().withWaitForResize(false));
            assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
            for (String claim : List.of("data-postgres-0", "data-postgres-1", "data-postgres-2")) {
                assertThat(r.warnings()).as(r.warnings().toString()).anySatisfy(w -> assertThat(w)
                        .startsWith("claim " + claim + " has not grown yet: capacity 10Gi, request 20Gi"));
            }
            assertThat(h.converger().reread(r).warnings()).as("still true when re-read").hasSize(3);
        }
    }

    @Test
    void a_manifest_without_replicas_never_scales_a_set_scaled_to_five_and_keeps_its_partition() {
        try (Harness h = Harness.start(home, Demo.clusterWith("StatefulSet", "postgres", s -> {
            ((ObjectNode) s.path("spec")).put("replicas", 5);
            ((ObjectNode) s.path("spec").path("updateStrategy")).putObject("rollingUpdate").put("partition", 1);
        }))) {
            Harness.await("5 pods and claims", () -> h.claim("shop", "data-postgres-4") != null && h.pod("shop", "postgres-4") != null
                    && "Bound".equals(h.claim("shop", "data-postgres-4").at("/status/phase").asText()));
            h.settle();
            Map<String, String> before = podUids(h, "shop", "postgres", 5);
            ObjectNode declared = Demo.declared("postgres", d -> ((ObjectNode) d.path("spec")).remove("replicas"));
            StatefulSetResult r = converge(h, declared, Harness.options());
            assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
            ObjectNode sts = h.sts("shop", "postgres");
            assertThat(sts.at("/spec/replicas").asInt()).isEqualTo(5);
            assertThat(sts.at("/spec/updateStrategy/rollingUpdate/partition").asInt()).isEqualTo(1);
            assertThat(podUids(h, "shop", "postgres", 5)).isEqualTo(before);
            for (int i = 0; i < 5; i++) {
                assertThat(Quantity.parse(h.claim("shop", "data-postgres-" + i).at("/spec/resources/requests/storage").asText()))
                        .isEqualByComparingTo(Quantity.parse("20Gi"));
            }
            assertThat(h.events).anySatisfy(e -> assertThat(e.message()).contains("omits replicas: the re-applied StatefulSet keeps the live 5"));
        }
    }

    @Test
    void a_failing_re_apply_restores_the_backup_so_the_pods_are_owned_again_and_says_so() {
        try (Harness h = Harness.start(home, Demo.clusterWith("StatefulSet", "postgres", s -> {
            ((ObjectNode) s.path("metadata")).withObject("/annotations").put("example.com/kept", "yes");
        }))) {
            // 1: the proof's dry run, 2: the re-apply's dry run, 3: the re-apply itself
            h.sim.faults().add(FaultRule.onNth("patch", "statefulsets", "postgres", 3, Fault.status(422, "Invalid",
                    "StatefulSet.apps \"postgres\" is invalid: metadata.annotations: Too long: must have at most 262144 bytes")));
            Map<String, String> before = podUids(h, "shop", "postgres", 3);
            ObjectNode live = h.sts("shop", "postgres");
            StatefulSetResult r = converge(h, Demo.declared("postgres"), Harness.options());
            assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.FAILED);
            assertThat(r.reason()).isEqualTo("reapply-failed");
            assertThat(r.detail()).contains("backup was restored", "Too long");
            ObjectNode restored = h.sts("shop", "postgres");
            assertThat(Harness.uid(restored)).isNotEqualTo(Harness.uid(live));
            assertThat(restored.at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage").asText()).isEqualTo("10Gi");
            assertThat(restored.at("/metadata/annotations/example.com~1kept").asText()).isEqualTo("yes");
            assertThat(restored.at("/spec/template")).isEqualTo(live.at("/spec/template"));
            assertThat(podUids(h, "shop", "postgres", 3)).isEqualTo(before);
            Harness.await("pods adopted by the restored StatefulSet", () -> Harness.uid(restored)
                    .equals(h.pod("shop", "postgres-2").at("/metadata/ownerReferences/0/uid").asText()));
        }
    }
}
