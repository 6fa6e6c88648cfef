package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.fault.Fault;
import dev.stsresize.sim.fault.FaultRule;
import dev.stsresize.sim.registry.DeleteOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs cut short by the cluster: said honestly, nothing lost, and finished later. */
class InterruptionsTest {
    @TempDir Path home;

    @Test
    void a_statefulset_re_created_by_someone_else_before_the_delete_is_never_deleted() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            String uid = Harness.uid(h.sts("shop", "postgres"));
            // 1st DELETE is the proof's dry run; the 2nd, the real one, finds another UID under the name
            h.sim.faults().add(FaultRule.onNth("delete", "statefulsets", "postgres", 2, Fault.status(409, "Conflict",
                    "Operation cannot be fulfilled on StatefulSet.apps \"postgres\": the UID in the precondition (" + uid
                            + ") does not match the UID in record (0000). The object might have been deleted and then recreated")));
            Assessment a = new Assessor(h.cluster(), Progress.NONE).assess(List.of(Demo.declared("postgres")), false,
                    Assessor.Depth.APPLY, false, Optional.empty());
            StatefulSetResult r = h.converger().converge(a.items().get(0), Harness.options(), true);
            assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.FAILED);
            assertThat(r.reason()).isEqualTo("delete-refused");
            assertThat(r.detail()).contains("nothing was deleted");
            assertThat(Harness.uid(h.sts("shop", "postgres"))).isEqualTo(uid);
            assertThat(h.writes()).noneMatch(w -> w.method().equals("PATCH") && "statefulsets".equals(w.resource()));
            assertThat(h.journal.all()).isEmpty();
        }
    }

    @Test
    void a_statefulset_deleted_by_someone_else_just_before_the_orphan_delete_is_not_reported_as_deleted_by_this_run() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            Assessment a = new Assessor(h.cluster(), Progress.NONE).assess(List.of(Demo.declared("postgres")), false,
                    Assessor.Depth.APPLY, false, Optional.empty());
            String uid = Harness.uid(h.sts("shop", "postgres"));
            // after the last claim patch, someone else deletes the StatefulSet (orphaning, so nothing is lost)
            Checkpoint someoneDeletes = w -> {
                if (w.equals("patch claim data-postgres-2")) {
                    h.sim.registry().delete(h.sim.catalog().byResource("apps", "statefulsets").orElseThrow(), "shop", "postgres",
                            DeleteOptions.orphan(uid));
                    Harness.await("postgres gone", () -> h.sts("shop", "postgres") == null);
                }
            };
            List<ProgressEvent> told = new java.util.ArrayList<>();
            Converger c = new Converger(h.cluster(), java.time.Clock.systemUTC(), h.journal, "alice@laptop 1", h.sim.url(),
                    GateAnswers.YES, told::add, someoneDeletes);
            StatefulSetResult r = c.converge(a.items().get(0), Harness.options(), true);
            assertThat(told).as(told.toString()).noneMatch(e -> e.step() == Phase.ORPHAN_DELETE
                    && e.message().contains("deleted with propagationPolicy=Orphan"));
            assertThat(told).anyMatch(e -> e.step() == Phase.ORPHAN_DELETE && e.message().contains("was already gone (404)"));
            assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        }
    }

    @Test
    void a_statefulset_deleted_by_someone_else_after_the_lock_is_re_applied_with_its_claims_grown_first() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            Assessment a = new Assessor(h.cluster(), Progress.NONE).assess(List.of(Demo.declared("postgres")), false,
                    Assessor.Depth.APPLY, false, Optional.empty());
            Converger first = h.converger(h.cluster(), "alice@laptop 1", GateAnswers.YES, w -> {
                throw new IllegalStateException("crash after " + w);
            });
            assertThatThrownBy(() -> first.converge(a.items().get(0), Harness.options(), true)).hasMessageContaining("crash after lock");
            String uid = Harness.uid(h.sts("shop", "postgres"));
            h.sim.registry().delete(h.sim.catalog().byResource("apps", "statefulsets").orElseThrow(), "shop", "postgres",
                    DeleteOptions.orphan(uid));
            Harness.await("postgres gone", () -> h.sts("shop", "postgres") == null);

            Commands.Run r = Commands.run(h, "resume", "--yes", "--timeout", "60s", "-o", "json");
            assertThat(r.code()).as(r.describe()).isZero();
            assertThat(h.sts("shop", "postgres").at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage").asText()).isEqualTo("20Gi");
            for (int i = 0; i < 3; i++) {
                assertThat(h.claim("shop", "data-postgres-" + i).at("/spec/resources/requests/storage").asText()).isEqualTo("20Gi");
            }
        }
    }

    @Test
    void a_server_failing_past_the_retries_mid_run_is_reported_per_statefulset_and_resume_finishes_it() throws Exception {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            Path manifest = Commands.manifest(home, List.of(Demo.declared("postgres"), Demo.declared("minio")));
            // right after the orphan delete, every read of the StatefulSet fails: its 404 cannot be read back
            FaultRule[] broken = new FaultRule[1];
            Checkpoint breakReads = w -> {
                if (w.startsWith("orphan-delete")) {
                    broken[0] = h.sim.faults().add(FaultRule.on("get", "statefulsets", "postgres",
                            Fault.status(503, "ServiceUnavailable", "the server is currently unable to handle the request")));
                }
            };
            Commands.Run r = Commands.run(h, Optional::empty, breakReads, "apply", "-f", manifest.toString(), "--yes", "-o", "json",
                    "--timeout", "60s");
            assertThat(r.code()).as(r.describe()).isEqualTo(1);
            JsonNode doc = new ObjectMapper().readTree(r.out());
            assertThat(doc.path("items")).extracting(i -> i.path("name").asText() + "=" + i.path("outcome").asText()
                    + "/" + i.path("reason").asText()).containsExactly("minio=claims-grown/", "postgres=failed/interrupted");
            assertThat(doc.at("/items/1/detail").asText()).contains("kubectl stsresize resume");
            assertThat(h.journal.all()).extracting(Record::name).containsExactly("postgres");

            h.sim.faults().clear();
            assertThat(broken[0].fired()).isPositive();
            Commands.Run resumed = Commands.run(h, "resume", "--yes", "--timeout", "60s");
            assertThat(resumed.code()).as(resumed.describe()).isZero();
            ObjectNode sts = h.sts("shop", "postgres");
            assertThat(sts.at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage").asText()).isEqualTo("20Gi");
            assertThat(h.journal.all()).isEmpty();
        }
    }
}
