package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stsresize.sim.controller.Timings;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An online-expansion class: the kubelet finishes the file system while the pod runs, some time after
 * the resizer. A run's warnings are told at the end of the command, and by then it may have: each
 * claim is re-read, and only a claim that still says FileSystemResizePending is warned about.
 */
class FileSystemResizeWarningTest {
    /**
     * The fast pace, but the kubelet takes 6 s to expand a file system online: longer than a whole
     * run takes on a loaded machine (with 1.5 s, a run at load 20 outlasted the kubelet and both tests
     * saw the file systems finished before they looked), so "still pending at the end" holds.
     */
    static final Timings SLOW_KUBELET = new Timings(0, 2, 1, 2, 2, 5, 2, 3, 6000, 5);

    @TempDir Path home;

    static boolean pending(Harness h, String ns, String claim) {
        // NodeResizePending, then NodeResizeInProgress while the kubelet grows it
        return h.claim(ns, claim).at("/status/allocatedResourceStatuses/storage").asText().startsWith("NodeResize");
    }

    @Test
    void a_file_system_the_kubelet_finished_during_the_run_is_not_warned_about_at_its_end() throws Exception {
        try (Harness h = Harness.start(home, Demo.cluster(), SLOW_KUBELET)) {
            Path manifest = Commands.manifest(home, List.of(Demo.declared("kafka"), Demo.declared("postgres")));
            // analytics/kafka converges first; before shop/postgres starts, its claims' file systems are finished
            Checkpoint waitForKafka = w -> {
                if (w.equals("lock postgres")) {
                    for (int i = 0; i < 3; i++) {
                        String claim = "data-kafka-" + i;
                        Harness.await(claim + "'s file system grown by the kubelet", () -> !pending(h, "analytics", claim));
                    }
                }
            };
            Commands.Run r = Commands.run(h, Optional::empty, waitForKafka, "apply", "-f", manifest.toString(), "--yes", "-o", "json",
                    "--timeout", "60s");
            assertThat(r.code()).as(r.describe()).isZero();
            // while it ran, the file systems waited: said then, as it was
            assertThat(r.err()).as(r.describe()).contains("analytics/kafka: claim data-kafka-0: FileSystemResizePending");
            JsonNode doc = new ObjectMapper().readTree(r.out());
            JsonNode kafka = doc.at("/items/0");
            assertThat(kafka.path("name").asText()).isEqualTo("kafka");
            assertThat(kafka.path("outcome").asText()).isEqualTo("converged");
            assertThat(kafka.path("warnings")).as(r.describe()).noneSatisfy(w -> assertThat(w.asText()).contains("file system"));
            for (JsonNode c : kafka.path("claims")) {
                assertThat(c.path("capacity").asText()).as("capacity as read at the end: " + c).isEqualTo("200Gi");
            }
            // a claim that still waits is warned about, read from the object: never more than the cluster says
            JsonNode postgres = doc.at("/items/1");
            for (JsonNode w : postgres.path("warnings")) {
                String claim = w.asText().split(" ")[1];
                assertThat(w.asText()).contains("waits for a file system resize on pod postgres-");
                assertThat(h.claim("shop", claim).at("/status/allocatedResourceStatuses/storage").asText())
                        .as("warned about " + claim + " but it no longer waits").isIn("NodeResizePending", "NodeResizeInProgress", "");
            }
        }
    }

    @Test
    void reread_keeps_a_warning_only_while_the_claim_says_so() {
        try (Harness h = Harness.start(home, Demo.cluster(), SLOW_KUBELET)) {
            Assessment a = new Assessor(h.cluster(), Progress.NONE).assess(List.of(Demo.declared("postgres")), false,
                    Assessor.Depth.APPLY, false, Optional.empty());
            Converger converger = h.converger();
            // the run follows the file systems for half a second only: it ends before the slow kubelet
            StatefulSetResult r = converger.converge(a.items().get(0), Harness.options().withFsTimeout(java.time.Duration.ofMillis(500)), true);
            assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
            // claims in the order of their ordinals, each still waiting for the kubelet when the run ended
            assertThat(r.claims()).extracting(StatefulSetResult.ClaimResult::name)
                    .containsExactly("data-postgres-0", "data-postgres-1", "data-postgres-2");
            assertThat(r.warnings()).as("the slow kubelet has not finished yet").hasSize(3)
                    .allSatisfy(w -> assertThat(w).contains("waits for a file system resize on pod postgres-"));
            assertThat(r.claims()).extracting(StatefulSetResult.ClaimResult::fileSystem).containsOnly(FileSystem.PENDING);
            assertThat(r.detail()).contains("file systems: 3 still growing");
            for (int i = 0; i < 3; i++) {
                String claim = "data-postgres-" + i;
                Harness.await(claim + " finished by the kubelet", () -> !pending(h, "shop", claim));
            }
            StatefulSetResult now = converger.reread(r);
            assertThat(now.warnings()).isEmpty();
            assertThat(now.claims()).extracting(StatefulSetResult.ClaimResult::capacity).containsOnly("20Gi");
            assertThat(now.pods()).isEqualTo(r.pods());
            assertThat(now.claims()).extracting(StatefulSetResult.ClaimResult::fileSystem).as("grown since, said as it is now")
                    .containsOnly(FileSystem.GROWN);
            assertThat(now.detail()).isEqualTo(r.detail().replace("file systems: 3 still growing (the kubelet had not finished when the run"
                    + " stopped following it): the pods cannot use all of the new space yet", "3 file systems grown: the pods can write to"
                    + " the new space"));
        }
    }
}
