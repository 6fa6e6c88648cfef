package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.plan.Decision;
import dev.stsresize.sim.registry.DeleteOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The status never lies: outcomes read from the objects, and every write re-reads what it changes first. */
class VerificationTest {
    @TempDir Path home;

    static Assessment assess(Harness h, ObjectNode declared) {
        return new Assessor(h.cluster(), h.events::add).assess(List.of(declared), false, Assessor.Depth.APPLY, false, Optional.empty());
    }

    @Test
    void a_pod_lost_in_the_gap_makes_the_run_fail_not_verified_never_converged() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            // a saboteur deletes pod postgres-1 right after the orphan delete: the re-created set replaces it
            Checkpoint saboteur = w -> {
                if (w.startsWith("orphan-delete")) {
                    h.sim.registry().delete(h.sim.catalog().byResource("", "pods").orElseThrow(), "shop", "postgres-1",
                            DeleteOptions.BACKGROUND);
                }
            };
            Assessment a = assess(h, Demo.declared("postgres"));
            StatefulSetResult r = h.converger(h.cluster(), "alice@laptop 1", GateAnswers.YES, saboteur)
                    .converge(a.items().get(0), Harness.options(), true);
            assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.FAILED);
            assertThat(r.reason()).isEqualTo("not-verified");
            assertThat(r.detail()).contains("postgres-1");
        }
    }

    @Test
    void a_pod_template_change_rolls_the_pods_as_announced_and_still_converges() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            ObjectNode declared = Demo.declared("postgres", d -> ((ObjectNode) d.at("/spec/template/spec/containers/0")).put("image", "postgres:16.5"));
            Assessment a = assess(h, declared);
            assertThat(a.items().get(0).decision().warnings()).anySatisfy(w -> assertThat(w).contains("pods will roll"));
            StatefulSetResult r = h.converger().converge(a.items().get(0), Harness.options(), true);
            assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        }
    }

    @Test
    void a_claim_grown_by_someone_else_after_the_plan_is_re_read_and_left_alone() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            Assessment a = assess(h, Demo.declared("postgres"));
            // between the plan and the first write, an operator grows data-postgres-0 beyond the target
            GateAnswers racing = new GateAnswers() {
                @Override
                public boolean allowGrow(Decision d) {
                    h.cluster().patchClaimStorage("shop", "data-postgres-0", "25Gi", false);
                    return true;
                }

                @Override
                public boolean allowOrphanDelete(String ns, String name) {
                    return true;
                }
            };
            StatefulSetResult r = h.converger(h.cluster(), "alice@laptop 1", racing, Checkpoint.NONE)
                    .converge(a.items().get(0), Harness.options(), true);
            assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
            assertThat(h.claim("shop", "data-postgres-0").at("/spec/resources/requests/storage").asText())
                    .as("never patched downward").isEqualTo("25Gi");
        }
    }
}
