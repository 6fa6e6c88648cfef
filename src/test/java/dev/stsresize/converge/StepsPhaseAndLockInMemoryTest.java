package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The steps' rules at the edges of a run: the phase a re-apply records when nothing was proved beside the delete (a run
 * taken up past its delete), and a lock whose first checkpoint fails (its Lease no longer renewed); on the in-memory demo
 * cluster.
 */
class StepsPhaseAndLockInMemoryTest extends OnMemoryWorld {
    @Test
    void a_re_apply_without_a_proof_sent_beside_the_delete_records_its_phase_before_it_writes() {
        Steps.Run run = w.locked("postgres");
        steps.grow(run);
        Steps.Reapplied ra = steps.reapply(run);
        assertThat(ra.statefulSet()).isNotNull();
        assertThat(w.journal.read("shop", "postgres")).hasValueSatisfying(rec -> assertThat(rec.phase())
                .isEqualTo(Phase.REAPPLY.recorded()));
        run.close();
    }

    @Test
    void a_lock_whose_first_checkpoint_fails_stops_renewing_its_lease() throws InterruptedException {
        Steps failing = new Steps(w.cluster, w.cluster.time, w.journal, "alice@laptop 7", "https://memory", w.heard, what -> {
            throw new IllegalStateException("crash after " + what);
        }, w.stop);
        ConvergeOptions fast = MemoryWorld.options().withLeaseDuration(Duration.ofMillis(30));
        Steps.Checked checked = failing.check(w.assess("postgres"), fast, true);
        assertThatThrownBy(() -> failing.lock(checked, fast, true)).hasMessage("crash after lock postgres");
        Thread.sleep(30);
        int renewed = w.cluster.writes("updateLease").size();
        Thread.sleep(120);
        assertThat(w.cluster.writes("updateLease")).as("no renewal once the run has crashed").hasSize(renewed);
    }
}
