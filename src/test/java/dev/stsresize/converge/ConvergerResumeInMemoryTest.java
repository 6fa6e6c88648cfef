package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What {@code resume} and the result's re-read tell the operator, on the in-memory demo cluster: a resume stopped before
 * it began writes nothing and keeps the record, a manifest of another StatefulSet is refused, a StatefulSet
 * already re-created is verified; a result re-read says a failed resize's claims as they are.
 */
class ConvergerResumeInMemoryTest extends OnMemoryWorld {
    /** A run of postgres stopped (SIGTERM) while its claims grow, as {@code resume} finds it. */
    private PendingRun stoppedWhileGrowing() {
        w.resizer = c -> w.stop.request("SIGTERM");
        w.converger(GateAnswers.YES).converge(w.assess("postgres"), MemoryWorld.options(), true);
        w.resizer = c -> { };
        return pending();
    }

    private PendingRun pending() {
        return new RunRecords(w.cluster, w.journal, "https://memory").find("shop", "postgres", true).orElseThrow();
    }

    private Converger resumer(StopRequest stop) {
        return new Converger(w.cluster, w.cluster.time, w.journal, "alice@laptop 8", "https://memory", GateAnswers.YES, w.heard,
                Checkpoint.NONE, stop);
    }

    @Test
    void a_resume_stopped_before_it_began_writes_nothing_and_keeps_the_run_recorded() {
        PendingRun pending = stoppedWhileGrowing();
        int writes = w.cluster.writes().size();
        StopRequest stop = new StopRequest();
        stop.request("SIGINT");
        Converger resumer = resumer(stop);
        StatefulSetResult r = resumer.resume(pending, MemoryWorld.declared("postgres"), MemoryWorld.options(), true);
        assertThat(r.outcome()).isEqualTo(Outcome.STOPPED);
        assertThat(r.reason()).isEqualTo("stopped");
        assertThat(r.detail()).isEqualTo("before resuming (SIGINT): nothing was written; the run stays recorded: `kubectl stsresize resume"
                + " shop/postgres` finishes it");
        assertThat(resumer.stopped()).singleElement().satisfies(s -> assertThat(s.phase()).isEqualTo(pending.record().phase())
                .isNotEmpty());
        assertThat(w.cluster.writes()).hasSize(writes);
        assertThat(w.journal.read("shop", "postgres")).isPresent();
    }

    @Test
    void a_resume_given_the_manifest_of_another_statefulset_is_refused() {
        PendingRun pending = stoppedWhileGrowing();
        assertThatThrownBy(() -> resumer(new StopRequest()).resume(pending, MemoryWorld.declared("redis"), MemoryWorld.options(), true))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("the manifest's shop/redis is not shop/postgres");
    }

    @Test
    void a_resume_whose_statefulset_was_replaced_since_the_record_is_left_alone() {
        PendingRun pending = stoppedWhileGrowing();
        w.cluster.edit("StatefulSet", "shop", "postgres", s -> ((ObjectNode) s.path("metadata")).put("uid", "someone-elses"));
        int writes = w.cluster.writes().size();
        StatefulSetResult r = resumer(new StopRequest()).resume(pending, MemoryWorld.declared("postgres"), MemoryWorld.options(), true);
        assertThat(r.outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(r.reason()).isEqualTo("untrusted-record");
        assertThat(r.detail()).contains("has UID someone-elses");
        assertThat(w.cluster.writes()).hasSize(writes);
    }

    @Test
    void a_resume_whose_record_would_not_fit_in_its_secret_fails_before_any_write() {
        PendingRun pending = stoppedWhileGrowing();
        java.util.Random random = new java.util.Random(37);
        byte[] noise = new byte[1_200_000];
        random.nextBytes(noise);
        ObjectNode declared = Demo.declared("postgres", d -> Objects.child(Objects.child(d, "metadata"), "annotations").put("example.com/blob",
                java.util.Base64.getEncoder().encodeToString(noise)));
        int writes = w.cluster.writes().size();
        StatefulSetResult r = resumer(new StopRequest()).resume(pending, declared, MemoryWorld.options(), true);
        assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(r.reason()).isEqualTo("record-too-large");
        assertThat(r.detail()).startsWith("StatefulSet shop/postgres cannot be resized by this plugin: the record");
        assertThat(w.cluster.writes()).hasSize(writes);
    }

    @Test
    void a_resume_of_a_run_whose_statefulset_was_already_re_created_verifies_the_adoption() {
        Steps.Run run = w.locked("postgres");
        steps.grow(run);
        steps.orphanDelete(run, new Steps.DeleteAllowed("shop", "postgres", run.record().uid()));
        steps.reapply(run);
        run.close();
        String standing = w.uid("StatefulSet", "shop", "postgres");
        StatefulSetResult r = w.converger(GateAnswers.YES).resume(pending(), null, MemoryWorld.options().withTakeOver(true), true);
        assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        assertThat(w.heard.events).anySatisfy(p -> assertThat(p.message()).isEqualTo("StatefulSet postgres already re-created (UID "
                + standing + "): verifying adoption"));
    }

    @Test
    void a_result_re_read_after_a_failed_resize_names_the_claims_still_below_their_target() {
        for (String c : List.of("data-postgres-0", "data-postgres-1")) {
            w.cluster.edit("PersistentVolumeClaim", "shop", c, x -> x.with("spec").with("resources").with("requests").put("storage", "20Gi"));
        }
        StatefulSetResult failed = new StatefulSetResult("shop", "postgres", Outcome.FAILED, "resize-failed", "the resizer failed",
                List.of(claim("data-postgres-0"), claim("data-postgres-1")), List.of(), List.of(ClaimWarnings.NOT_GROWN_PREFIX.formatted(
                        "data-postgres-0") + ": capacity 10Gi"), List.of());
        StatefulSetResult again = w.converger(GateAnswers.YES).reread(failed);
        assertThat(again.warnings()).as("said once, as the failure, not as a claim still being resized").containsExactly(
                "claims data-postgres-0 (10Gi of 20Gi), data-postgres-1 (10Gi of 20Gi) did not grow: their resize failed, as the failure"
                        + " above says");
        assertThat(again.claims()).extracting(StatefulSetResult.ClaimResult::capacity).containsOnly("10Gi");
    }

    @Test
    void a_result_re_read_whose_warnings_say_a_claim_has_not_grown_reads_the_claims_again() {
        ObjectNode c0 = w.claim("shop", "data-postgres-0");
        assertThat(c0.at("/status/capacity/storage").asText()).isEqualTo("10Gi");
        StatefulSetResult stopped = new StatefulSetResult("shop", "postgres", Outcome.STOPPED, "stopped", "stopped",
                List.of(claim("data-postgres-0")), List.of(), List.of(ClaimWarnings.NOT_GROWN_PREFIX.formatted("data-postgres-0")
                        + " (old words)"), List.of());
        w.cluster.edit("PersistentVolumeClaim", "shop", "data-postgres-0", x -> Objects.child((ObjectNode) x.path("status"), "capacity")
                .put("storage", "20Gi"));
        StatefulSetResult again = w.converger(GateAnswers.YES).reread(stopped);
        assertThat(again.claims()).extracting(StatefulSetResult.ClaimResult::capacity).containsExactly("20Gi");
        assertThat(again.warnings()).as("grown since: the old words are not said again").isEmpty();
    }

    private static StatefulSetResult.ClaimResult claim(String name) {
        return new StatefulSetResult.ClaimResult(name, "10Gi", "20Gi", "10Gi");
    }
}
