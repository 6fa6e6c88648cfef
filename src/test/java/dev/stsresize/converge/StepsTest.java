package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The converge's steps called one at a time, as the wizard calls them: each answers what it did and
 * read back, the delete checks its precondition, and a step called again after it ran finds its work
 * done (the grow re-reads and patches nothing).
 */
class StepsTest {
    @TempDir Path home;

    @Test
    void the_orphan_delete_refuses_without_the_allowance_of_this_statefulset_and_uid_and_sends_nothing() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            Steps steps = new Steps(h.cluster(), Clock.systemUTC(), h.journal, "alice@laptop 1", h.sim.url(), h.events::add, Checkpoint.NONE);
            Assessment a = new Assessor(h.cluster(), Progress.NONE).assess(List.of(Demo.declared("postgres")), false,
                    Assessor.Depth.APPLY, false, Optional.empty());
            Steps.Checked checked = steps.check(a.items().get(0), Harness.options(), true);
            assertThat(checked.proceeds()).as(String.valueOf(checked.stop())).isTrue();
            Steps.Acquired lock = steps.lock(checked, Harness.options(), true);
            assertThat(lock.held()).as(lock.message()).isTrue();
            try (Steps.Run run = lock.run()) {
                Steps.Grown grown = steps.grow(run);
                assertThat(grown.patched()).containsExactly("data-postgres-0", "data-postgres-1", "data-postgres-2");
                assertThat(grown.requestsBefore()).containsEntry("data-postgres-0", "10Gi");
                assertThat(steps.grow(run).patched()).as("called again: every claim already grown, nothing patched").isEmpty();
                String uid = run.record().uid();
                for (Steps.DeleteAllowed wrong : new Steps.DeleteAllowed[] {null, new Steps.DeleteAllowed("shop", "postgres", "another-uid"),
                        new Steps.DeleteAllowed("shop", "kafka", uid)}) {
                    assertThatThrownBy(() -> steps.orphanDelete(run, wrong)).as(String.valueOf(wrong))
                            .isInstanceOf(Steps.NotAllowed.class).hasMessageContaining("has not allowed it");
                }
                assertThat(h.writes()).as("no delete sent").noneMatch(r -> r.method().equals("DELETE"));
                Steps.Deleted del = steps.orphanDelete(run, new Steps.DeleteAllowed("shop", "postgres", uid));
                assertThat(del.gone()).as(del.message()).isTrue();
                Steps.Reapplied ra = steps.reapply(run);
                assertThat(ra.restored()).isFalse();
                assertThat(Harness.uid(ra.statefulSet())).isNotEqualTo(uid);
                Steps.Verified v = steps.verify(run);
                assertThat(v.adopted()).as(v.detail()).isTrue();
                StatefulSetResult r = steps.verified(run, v, List.of());
                assertThat(r.outcome()).isEqualTo(Outcome.CONVERGED);
            }
            assertThat(h.journal.all()).as("released").isEmpty();
        }
    }
}
