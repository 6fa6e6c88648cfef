package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.demo.DemoScenario;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code apply} and {@code plan} through the real command line against the simulated cluster. */
class ApplyCommandTest {
    @TempDir Path home;

    static List<ObjectNode> only(List<ObjectNode> manifest, String... names) {
        List<ObjectNode> out = new ArrayList<>();
        for (ObjectNode o : manifest) {
            if (List.of(names).contains(o.at("/metadata/name").asText())) {
                out.add(o);
            }
        }
        return out;
    }

    @Test
    void apply_yes_json_prints_exactly_one_result_document_and_converges() throws Exception {
        try (Harness h = Harness.start(home, DemoScenario.cluster())) {
            Path manifest = Commands.manifest(home, only(DemoScenario.manifest(), "postgres", "redis", "minio"));
            Commands.Run r = Commands.run(h, "apply", "-f", manifest.toString(), "--yes", "-o", "json", "--timeout", "60s");
            JsonNode doc = new ObjectMapper().readTree(r.out());
            assertThat(doc.path("kind").asText()).as(r.describe()).isEqualTo("Result");
            assertThat(doc.path("apiVersion").asText()).isEqualTo("stsresize/v1");
            assertThat(r.code()).as(r.describe()).isEqualTo(2); // redis is refused
            assertThat(doc.path("items")).extracting(i -> i.path("name").asText() + "=" + i.path("outcome").asText())
                    .containsExactly("minio=claims-grown", "postgres=converged", "redis=refused");
            JsonNode postgres = doc.path("items").get(1);
            assertThat(postgres.path("claims")).hasSize(3).allSatisfy(c -> {
                assertThat(c.path("to").asText()).isEqualTo("20Gi");
                assertThat(c.path("capacity").asText()).isEqualTo("20Gi");
            });
            assertThat(postgres.path("pods")).hasSize(3).allSatisfy(p -> assertThat(p.path("uidAfter").asText())
                    .isEqualTo(p.path("uidBefore").asText()).isNotEmpty());
            // an Event for every write, on the object written, naming the operator (sent as events.k8s.io/v1,
            // stored in the core v1 form, as kube-apiserver does)
            List<JsonNode> ours = new ArrayList<>();
            for (ObjectNode o : h.sim.snapshot()) {
                if (o.path("kind").asText().equals("Event") && o.path("reportingComponent").asText().equals("kubectl-stsresize")) {
                    ours.add(o);
                }
            }
            assertThat(ours).extracting(e -> e.at("/involvedObject/name").asText() + " " + e.path("reason").asText())
                    .contains("data-postgres-0 StorageRequestGrown", "data-postgres-2 StorageRequestGrown", "postgres OrphanDeleted",
                            "postgres Reapplied", "data-minio-0 StorageRequestGrown");
            assertThat(ours).allSatisfy(e -> assertThat(e.path("message").asText()).contains("(by "));
            assertThat(r.err()).contains("Writes to come, for shop/postgres", "kubectl patch pvc data-postgres-0",
                    "propagationPolicy\\\":\\\"Orphan".replace("\\", ""));
        }
    }

    @Test
    void apply_yes_of_a_manifest_with_no_statefulset_is_an_error_and_sends_nothing() throws Exception {
        try (Harness h = Harness.start(home, DemoScenario.cluster())) {
            Path empty = java.nio.file.Files.writeString(home.resolve("only-a-service.yaml"),
                    "apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: shop}\n");
            Commands.Run r = Commands.run(h, "apply", "-f", empty.toString(), "--yes");
            assertThat(r.code()).as(r.describe()).isEqualTo(1);
            assertThat(r.err()).as(r.describe()).contains("error: no StatefulSet passed (read " + empty + ": only v1 Service)")
                    .doesNotContain("0 StatefulSets");
            assertThat(h.sim.requests()).as("nothing asked of the cluster, nothing written").noneMatch(q -> q.isWrite());
        }
    }

    @Test
    void without_a_terminal_and_without_yes_apply_refuses_and_writes_nothing() {
        try (Harness h = Harness.start(home, DemoScenario.cluster())) {
            Path manifest = Commands.manifest(home, only(DemoScenario.manifest(), "postgres"));
            Commands.Run r = Commands.run(h, "apply", "-f", manifest.toString());
            assertThat(r.code()).as(r.describe()).isEqualTo(1);
            assertThat(r.err()).contains("no terminal", "--yes");
            assertThat(h.sim.requests()).isEmpty();
        }
    }

    @Test
    void the_prompts_ask_before_growing_and_for_the_name_before_the_orphan_delete() {
        try (Harness h = Harness.start(home, DemoScenario.cluster())) {
            Path manifest = Commands.manifest(home, only(DemoScenario.manifest(), "postgres"));
            List<String> asked = new ArrayList<>();
            // yes to growing, a wrong name at the delete prompt each time it is asked: claims grown, StatefulSet untouched
            AtomicInteger n = new AtomicInteger();
            Commands.Run r = Commands.run(h, () -> Optional.of(q -> {
                asked.add(q);
                return n.getAndIncrement() == 0 ? "y" : "postgre";
            }), Checkpoint.NONE, "apply", "-f", manifest.toString(), "--timeout", "60s");
            assertThat(asked).hasSize(4);
            assertThat(asked.get(0)).contains("Grow 3 claim(s) of StatefulSet shop/postgres");
            assertThat(asked.subList(1, 4)).allSatisfy(q -> assertThat(q).contains("type its name"));
            assertThat(r.err()).contains("\"postgre\" is not \"postgres\": nothing was deleted; type its name exactly",
                    "the delete is refused after 3 tries");
            assertThat(r.code()).as(r.describe()).isEqualTo(1);
            assertThat(h.writes()).noneMatch(w -> "statefulsets".equals(w.resource()));
            assertThat(h.claim("shop", "data-postgres-0").at("/spec/resources/requests/storage").asText()).isEqualTo("20Gi");
            assertThat(h.journal.all()).isEmpty();
        }
    }

    @Test
    void dry_run_server_runs_every_check_and_writes_nothing() throws Exception {
        try (Harness h = Harness.start(home, DemoScenario.cluster())) {
            Path manifest = Commands.manifest(home, DemoScenario.manifest());
            Commands.Run r = Commands.run(h, "apply", "-f", manifest.toString(), "--dry-run=server", "-o", "json");
            JsonNode doc = new ObjectMapper().readTree(r.out());
            assertThat(doc.path("items")).extracting(i -> i.path("name").asText() + "=" + i.path("outcome").asText())
                    .contains("postgres=dry-run-ok", "minio=dry-run-ok", "redis=refused", "mysql=refused", "etcd=nothing-to-do");
            assertThat(h.writes()).as("writes under --dry-run=server").isEmpty();
            assertThat(h.sim.requests()).anyMatch(q -> "DELETE".equals(q.method()) && q.dryRun());
            assertThat(h.sim.requests()).anyMatch(q -> "PATCH".equals(q.method()) && "persistentvolumeclaims".equals(q.resource())
                    && q.dryRun());
        }
    }

    @Test
    void plan_from_the_cluster_costs_four_lists_the_namespace_rules_review_and_one_dry_run_per_statefulset_to_recreate() throws Exception {
        try (Harness h = Harness.start(home, DemoScenario.cluster())) {
            // shop holds postgres (grow), redis (refused), elasticsearch (grow), minio (grow-claims)
            Path manifest = Commands.manifest(home, only(DemoScenario.manifest(), "postgres", "redis", "elasticsearch", "minio"));
            Commands.Run r = Commands.run(h, "plan", "-f", manifest.toString(), "-o", "json");
            assertThat(r.code()).as(r.describe()).isEqualTo(2);
            JsonNode doc = new ObjectMapper().readTree(r.out());
            assertThat(doc.path("kind").asText()).isEqualTo("Plan");
            // the usage read beside the plan has its own count (PlanRequestsTest): one pods and one quota LIST, a summary per node
            var requests = h.sim.requests().stream().filter(q -> !PlanRequestsTest.usage(q)).toList();
            assertThat(h.sim.requests().stream().filter(PlanRequestsTest::usage).filter(q -> q.verb().equals("list")).map(q -> q.resource()))
                    .containsExactlyInAnyOrder("pods", "resourcequotas");
            assertThat(requests.stream().filter(q -> q.method().equals("GET")).map(q -> q.resource()))
                    .as("LISTs").containsExactlyInAnyOrder("statefulsets", "persistentvolumeclaims", "storageclasses", "csidrivers");
            assertThat(requests.stream().filter(q -> q.path().contains("selfsubjectrulesreviews")))
                    .as("one rules review for namespace shop, whatever the number of StatefulSets and verbs").hasSize(1);
            assertThat(requests.stream().filter(q -> q.path().contains("selfsubjectaccessreviews"))).as("access reviews").isEmpty();
            assertThat(requests.stream().filter(q -> !q.method().equals("GET") && !q.path().contains("selfsubjectrulesreviews")))
                    .as("dry runs: one per StatefulSet to recreate")
                    .hasSize(2).allSatisfy(q -> {
                        assertThat(q.method()).isEqualTo("PATCH");
                        assertThat(q.param("dryRun")).isEqualTo("All");
                    });
            assertThat(requests).hasSize(6 + 1);
        }
    }
}
