package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.plan.Quantity;
import dev.stsresize.sim.demo.DemoScenario;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The whole demo scenario converged: every case with the outcome it must have, read back from the objects. */
class DemoConvergeTest {
    @TempDir Path home;

    @Test
    void every_demo_case_ends_as_it_must_and_running_pods_are_adopted_not_restarted() {
        try (Harness h = Harness.start(home, DemoScenario.cluster())) {
            Cluster cluster = h.cluster();
            Map<String, String> podUids = new HashMap<>();
            for (ObjectNode o : DemoScenario.cluster()) {
                if (o.path("kind").asText().equals("Pod")) {
                    podUids.put(o.at("/metadata/namespace").asText() + "/" + o.at("/metadata/name").asText(), Harness.uid(o));
                }
            }
            Assessment assessment = new Assessor(cluster, h.events::add).assess(DemoScenario.manifest(), false,
                    Assessor.Depth.APPLY, false, Optional.empty());
            Converger converger = h.converger();
            Map<String, StatefulSetResult> results = assessment.items().stream()
                    .map(a -> converger.converge(a, Harness.options(), true))
                    .collect(Collectors.toMap(r -> r.namespace() + "/" + r.name(), r -> r));

            assertThat(results.get("shop/postgres").outcome()).as(results.get("shop/postgres").detail()).isEqualTo(Outcome.CONVERGED);
            assertThat(results.get("analytics/kafka").outcome()).as(results.get("analytics/kafka").detail()).isEqualTo(Outcome.CONVERGED);
            assertThat(results.get("shop/elasticsearch").outcome()).isEqualTo(Outcome.CONVERGED);
            assertThat(results.get("analytics/clickhouse").outcome()).as(results.get("analytics/clickhouse").detail()).isEqualTo(Outcome.CONVERGED);
            assertThat(results.get("shop/minio").outcome()).isEqualTo(Outcome.CLAIMS_GROWN);
            assertThat(results.get("shop/redis").outcome()).isEqualTo(Outcome.REFUSED);
            assertThat(results.get("shop/redis").reason()).isEqualTo("shrink");
            assertThat(results.get("legacy/mysql").outcome()).isEqualTo(Outcome.REFUSED);
            assertThat(results.get("legacy/mysql").reason()).isEqualTo("not-expandable");
            assertThat(results.get("legacy/etcd").outcome()).isEqualTo(Outcome.NOTHING_TO_DO);

            // online: claims at target capacity; the template declares it; pods kept their UIDs and are adopted
            ObjectNode postgres = h.sts("shop", "postgres");
            assertThat(postgres.at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage").asText()).isEqualTo("20Gi");
            for (int i = 0; i < 3; i++) {
                ObjectNode claim = h.claim("shop", "data-postgres-" + i);
                assertThat(Quantity.parse(claim.at("/status/capacity/storage").asText())).isEqualByComparingTo(Quantity.parse("20Gi"));
                ObjectNode pod = h.pod("shop", "postgres-" + i);
                assertThat(Harness.uid(pod)).isEqualTo(podUids.get("shop/postgres-" + i));
                assertThat(pod.at("/metadata/ownerReferences/0/uid").asText()).isEqualTo(Harness.uid(postgres));
            }
            assertThat(results.get("shop/postgres").pods()).allSatisfy(p -> assertThat(p.uidAfter()).isEqualTo(p.uidBefore()));
            // whenDeleted Delete: the claims survived and carry the new owner
            ObjectNode kafka = h.sts("analytics", "kafka");
            for (int i = 0; i < 3; i++) {
                ObjectNode claim = h.claim("analytics", "data-kafka-" + i);
                assertThat(claim).as("claim data-kafka-" + i + " survives").isNotNull();
                assertThat(claim.at("/metadata/ownerReferences/0/uid").asText()).isEqualTo(Harness.uid(kafka));
            }
            // scaled-away ordinal grown too
            assertThat(h.claim("shop", "data-elasticsearch-2").at("/spec/resources/requests/storage").asText()).isEqualTo("60Gi");
            // no pod mounts a scaled-away claim: the result must not tell the operator to restart one that does not exist
            if (h.claim("shop", "data-elasticsearch-2").at("/status/capacity/storage").asText().equals("30Gi")) {
                assertThat(results.get("shop/elasticsearch").warnings())
                        .anySatisfy(w -> assertThat(w).contains("data-elasticsearch-2", "no pod mounts it"))
                        .noneSatisfy(w -> assertThat(w).contains("pod elasticsearch-2"));
            }
            // offline: the pods that mount the claims are named, and the restart offered respects disruption budgets
            assertThat(results.get("analytics/clickhouse").warnings())
                    .anySatisfy(w -> assertThat(w).contains("data-clickhouse-0", "pod clickhouse-0", "--restart-pods-for-resize"));
            // lagging claims grown, StatefulSet untouched
            assertThat(h.writes()).noneMatch(r -> "statefulsets".equals(r.resource()) && "minio".equals(r.name()));
            // refused ones: no write at all
            assertThat(h.writes()).noneMatch(r -> List.of("redis", "mysql", "etcd").contains(r.name())
                    || r.name() != null && r.name().matches("data-(redis|mysql|etcd)-\\d+"));
            // the lock is released and the journal empty
            assertThat(h.journal.all()).isEmpty();
        }
    }
}
