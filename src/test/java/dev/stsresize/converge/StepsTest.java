package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
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
                StatefulSetResult r = steps.fileSystems(run, v, Harness.options(), new StopRequest());
                assertThat(r.claims()).allSatisfy(c -> assertThat(c.fileSystem()).isEqualTo(FileSystem.GROWN));
                assertThat(r.outcome()).isEqualTo(Outcome.CONVERGED);
            }
            assertThat(h.journal.all()).as("released").isEmpty();
        }
    }

    /**
     * A run whose Lease another holder took while it worked (seen at the next step's own Lease write,
     * or by the renewer first) stops before the step: no orphan delete, no re-apply, the other holder's
     * Lease left as it is. Negative controls (seen red): {@code Steps.stopIfLost} removed → the second test
     * (the step is stopped by its own Lease write's conflict instead, not before it); that AND {@code LeaseLock.write}
     * taking a conflicted Lease back whoever holds it → both tests (the delete goes out under bob's Lease).
     */
    @Test
    void a_lease_taken_by_another_holder_before_the_orphan_delete_stops_the_run_with_nothing_deleted() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            Steps steps = new Steps(h.cluster(), Clock.systemUTC(), h.journal, "alice@laptop 1", h.sim.url(), h.events::add, Checkpoint.NONE);
            Steps.Run run = lockedRun(h, steps, Harness.options());
            steps.grow(run);
            takeLease(h.cluster(), "bob@desk 2");
            int before = h.writes().size();
            assertThatThrownBy(() -> steps.orphanDelete(run, new Steps.DeleteAllowed("shop", "postgres", run.record().uid())))
                    .isInstanceOf(Locked.class).hasMessageContaining("bob@desk 2");
            assertThat(h.writes().subList(before, h.writes().size())).as("nothing written after the Lease was lost (its own Lease write answered 409 is how it was seen)")
                    .noneMatch(r -> r.status() < 300 && (r.resource().equals("statefulsets") || r.resource().equals("leases")));
            assertThat(Harness.uid(h.sts("shop", "postgres"))).isEqualTo(run.record().uid());
            assertThat(h.get("coordination.k8s.io/v1", "Lease", "shop", LeaseLock.leaseName("postgres")).at("/spec/holderIdentity").asText())
                    .isEqualTo("bob@desk 2");
            run.close();
        }
    }

    @Test
    void a_lease_the_renewer_finds_taken_stops_the_next_step_before_it_writes() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            Steps steps = new Steps(h.cluster(), Clock.systemUTC(), h.journal, "alice@laptop 1", h.sim.url(), h.events::add, Checkpoint.NONE);
            // a 3 s Lease is renewed every second: the renewer, not a step, finds it taken
            Steps.Run run = lockedRun(h, steps, Harness.options().withLeaseDuration(Duration.ofSeconds(3)));
            takeLease(h.cluster(), "bob@desk 2");
            Harness.await("the renewer finds the Lease taken", () -> run.lock.lost() != null);
            assertThat(run.lock.lost()).contains("bob@desk 2");
            int before = h.writes().size();
            assertThatThrownBy(() -> steps.reapply(run)).isInstanceOf(Locked.class).hasMessageContaining("it stops here");
            assertThat(h.writes().subList(before, h.writes().size())).as("no re-apply, no Lease write").noneMatch(r -> r.status() < 300);
            run.close();
        }
    }

    private static Steps.Run lockedRun(Harness h, Steps steps, ConvergeOptions options) {
        Assessment a = new Assessor(h.cluster(), Progress.NONE).assess(List.of(Demo.declared("postgres")), false,
                Assessor.Depth.APPLY, false, Optional.empty());
        Steps.Checked checked = steps.check(a.items().get(0), options, true);
        assertThat(checked.proceeds()).as(String.valueOf(checked.stop())).isTrue();
        Steps.Acquired lock = steps.lock(checked, options, true);
        assertThat(lock.held()).as(lock.message()).isTrue();
        return lock.run();
    }

    /** Another operator's run takes the Lease (as a `--take-over` would). */
    private static void takeLease(Cluster cluster, String holder) {
        ObjectNode lease = cluster.getLease("shop", LeaseLock.leaseName("postgres")).orElseThrow();
        ((ObjectNode) lease.path("spec")).put("holderIdentity", holder);
        cluster.updateLease(lease);
    }
}
