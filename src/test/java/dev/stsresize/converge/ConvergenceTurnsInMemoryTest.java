package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/**
 * What each turn of the state machine answers the driver that advances it (the wizard draws from it),
 * what going on, leaving and stopping end, and what a run leaves behind when it ends: the Lease
 * released or freed, nothing renewing it, the Events' warnings said; on the in-memory demo cluster.
 */
class ConvergenceTurnsInMemoryTest extends OnMemoryWorld {
    private static StatefulSetResult ended(Convergence.Turn t) {
        assertThat(t).isInstanceOf(Convergence.Turn.Ended.class);
        return t.result();
    }

    private void neverGrows() {
        w.resizer = c -> ((ObjectNode) c.path("status")).putObject("capacity").put("storage", "10Gi");
    }

    private Convergence atTheWaitForCapacity() {
        return atTheWaitForCapacity(m -> { });
    }

    /**
     * Postgres, its growth said yes to, told after its lock what {@code afterTheLock} says, advanced
     * through its grow: its next turn is the wait for capacity.
     */
    private Convergence atTheWaitForCapacity(java.util.function.Consumer<Convergence> afterTheLock) {
        Convergence m = w.start("postgres");
        m.answerGrow(true);
        m.advance();
        afterTheLock.accept(m);
        m.advance();
        return m;
    }

    /**
     * Clickhouse (a class that grows its file systems offline) on a world of its own, both gates passed,
     * told at its wait for capacity what {@code atTheWait} says, advanced to its file systems: their turn,
     * and how many watches it opened.
     */
    private FileSystemsTurn fileSystemsTurnAfter(java.util.function.Consumer<Convergence> atTheWait) {
        MemoryWorld other = another("other");
        Convergence c = other.startAllowed("clickhouse");
        c.advance();
        atTheWait.accept(c);
        advanceTo(c, Phase.FILE_SYSTEMS);
        int watches = other.cluster.watches;
        Convergence.Turn turn = c.advance();
        return new FileSystemsTurn(turn, other.cluster.watches - watches);
    }

    private record FileSystemsTurn(Convergence.Turn turn, int watches) {}

    @Test
    void each_end_is_the_turn_the_driver_is_answered() {
        Convergence no = w.start("postgres");
        no.answerGrow(false);
        assertThat(ended(no.advance()).reason()).isEqualTo("declined");

        w.cluster.put("{'kind':'Lease','metadata':{'name':'stsresize-postgres','namespace':'shop','annotations':{'stsresize.dev/phase':"
                + "'growing'}},'spec':{'holderIdentity':'bob@desk 1','leaseDurationSeconds':60,'renewTime':'2026-01-01T00:00:00.000000Z'}}");
        Convergence held = w.start("postgres");
        held.answerGrow(true);
        StatefulSetResult locked = ended(held.advance());
        assertThat(locked.reason()).isEqualTo("locked");
        assertThat(w.cluster.realWrites()).extracting(MemoryCluster.Call::method).doesNotContain("patchClaimStorage");
    }

    @Test
    void claims_that_do_not_grow_in_time_end_the_wait_turn_released_with_nothing_deleted() {
        neverGrows();
        StatefulSetResult r = ended(atTheWaitForCapacity().advance());
        assertThat(r.reason()).isEqualTo("resize-timeout");
        assertThat(w.released("shop", "postgres")).as("a later run finds no stale lock").isTrue();
        assertThat(w.cluster.realDeletes()).extracting(MemoryCluster.Call::method).containsOnly("deleteRecordSecret");
    }

    @Test
    void a_resizer_that_keeps_failing_ends_the_run_released_in_its_words() {
        w.resizer = c -> {
            ((ObjectNode) c.path("status")).putObject("capacity").put("storage", "10Gi");
            String claim = Objects.name(c);
            w.cluster.put("{'kind':'Event','metadata':{'name':'f-" + claim + "','namespace':'shop'},'involvedObject':{'kind':"
                    + "'PersistentVolumeClaim','name':'" + claim + "','uid':'" + Objects.uid(c) + "'},'reason':'VolumeResizeFailed',"
                    + "'type':'Warning','message':'quota exceeded','count':6}");
        };
        StatefulSetResult r = ended(atTheWaitForCapacity().advance());
        assertThat(r.reason()).isEqualTo("resize-failed");
        assertThat(r.detail()).startsWith("the resizer failed 6 times to expand claim data-postgres-0 (VolumeResizeFailed): quota exceeded")
                .contains("Nothing was deleted;");
        assertThat(w.released("shop", "postgres")).isTrue();
    }

    @Test
    void a_claim_deleted_while_it_grows_ends_the_run_released() {
        w.resizer = c -> w.cluster.remove("PersistentVolumeClaim", "shop", Objects.name(c));
        StatefulSetResult r = ended(atTheWaitForCapacity().advance());
        assertThat(r.reason()).isEqualTo("claim-gone");
        assertThat(w.released("shop", "postgres")).isTrue();
    }

    @Test
    void a_delete_refused_because_another_statefulset_stands_ends_that_turn_released() {
        Convergence m = w.startAllowed("postgres");
        m.advance();
        m.advance();
        w.cluster.edit("StatefulSet", "shop", "postgres", s -> ((ObjectNode) s.path("metadata")).put("uid", "someone-elses"));
        assertThat(m.advance()).isEqualTo(new Convergence.Turn.Moved(Phase.ORPHAN_DELETE));
        StatefulSetResult r = ended(m.advance());
        assertThat(r.reason()).isEqualTo("delete-refused");
        assertThat(w.released("shop", "postgres")).isTrue();
        assertThat(w.cluster.get("StatefulSet", "shop", "postgres")).isPresent();
    }

    @Test
    void an_adoption_that_does_not_come_ends_the_verify_turn_not_verified() {
        w.controllerRuns = false;
        Convergence m = w.startAllowed("postgres");
        advanceTo(m, Phase.VERIFY);
        assertThat(ended(m.advance()).reason()).isEqualTo("not-verified");
    }

    @Test
    void a_stop_during_the_verification_keeps_the_record_at_verifying() {
        w.controllerRuns = false;
        Convergence m = w.startAllowed("postgres");
        advanceTo(m, Phase.VERIFY);
        w.cluster.onWatch("StatefulSet", "shop", "postgres", () -> w.stop.request("SIGTERM"));
        Convergence.Turn t = m.advance();
        assertThat(t).isInstanceOf(Convergence.Turn.Stopped.class);
        assertThat(((Convergence.Turn.Stopped) t).phase()).isEqualTo("verifying");
        assertThat(w.journal.read("shop", "postgres")).isPresent();
    }

    @Test
    void a_stop_honoured_before_a_turn_is_that_turns_answer_with_the_lease_freed() {
        Steps.Run run = w.locked("postgres");
        Convergence m = Convergence.resumed(steps, MemoryWorld.options(), run, Phase.GROW);
        w.stop.request("SIGINT");
        Convergence.Turn t = m.advance();
        assertThat(t).isInstanceOf(Convergence.Turn.Stopped.class);
        assertThat(((Convergence.Turn.Stopped) t).phase()).isEqualTo("locked");
        assertThat(t.result().detail()).isEqualTo("at phase locked (SIGINT): the request in flight finished and no other write"
                + " started. The run is recorded: `kubectl stsresize resume shop/postgres` finishes it");
        assertThat(run.lock.renewing()).as("a stopped run renews nothing").isFalse();
        assertThat(w.sts("shop", "postgres")).isNotNull();
        assertThat(w.cluster.get("Lease", "shop", "stsresize-postgres").orElseThrow().at("/spec/holderIdentity").isMissingNode())
                .as("freed: resume takes it at once").isTrue();
    }

    @Test
    void a_stop_whose_lease_cannot_be_freed_says_why_it_stays_held() {
        Steps.Run run = w.locked("postgres");
        Convergence m = Convergence.resumed(steps, MemoryWorld.options(), run, Phase.GROW);
        w.cluster.failAlways("updateLease", MemoryCluster.error(500, "InternalError", "etcd"));
        w.stop.request("SIGINT");
        assertThat(m.advance().result().detail()).endsWith("`kubectl stsresize resume shop/postgres` finishes it; Lease"
                + " shop/stsresize-postgres could not be freed (etcd): it stays held until it expires, "
                + MemoryWorld.options().leaseDuration().toSeconds() + "s after its last renewal");
    }

    @Test
    void a_run_that_ends_or_crashes_renews_its_lease_no_more_and_says_what_its_events_had_to_say() {
        Steps.Run ends = w.locked("minio");
        Convergence claimsOnly = Convergence.resumed(steps, MemoryWorld.options(), ends, Phase.GROW);
        finish(claimsOnly);
        assertThat(ends.lock.renewing()).isFalse();

        w.cluster.failAlways("createEvent", MemoryCluster.error(500, "InternalError", "events store down"));
        Steps.Run crashes = w.locked("postgres");
        Convergence m = Convergence.resumed(steps, MemoryWorld.options(), crashes, Phase.GROW);
        m.allowDelete(new Steps.DeleteAllowed("shop", "postgres", crashes.record().uid()));
        m.advance();
        m.advance();
        assertThat(w.heard.events).noneSatisfy(p -> assertThat(p.message()).startsWith("could not record Event StorageRequestGrown"));
        w.cluster.edit("Lease", "shop", "stsresize-postgres", l -> ((ObjectNode) l.path("spec")).put("holderIdentity", "bob"));
        assertThatThrownBy(m::advance).isInstanceOf(Locked.class);
        assertThat(crashes.lock.renewing()).as("a crash renews nothing").isFalse();
        assertThat(w.heard.events).anySatisfy(p -> {
            assertThat(p.message()).startsWith("could not record Event StorageRequestGrown on ").endsWith(": events store down");
            assertThat(p.warning()).isTrue();
        });
        assertThat(w.journal.read("shop", "postgres")).as("the record kept for resume").isPresent();
    }

    @Test
    void a_run_resumed_with_its_statefulset_absent_grows_then_re_applies() {
        Steps.Run run = w.locked("postgres");
        w.orphanDeleted("shop", "postgres");
        Convergence m = Convergence.resumed(steps, MemoryWorld.options(), run, Phase.REGROW);
        assertThat(m.pastTheDelete()).isTrue();
        assertThat(m.advance()).isEqualTo(new Convergence.Turn.Moved(Phase.REAPPLY));
        assertThat(w.claim("shop", "data-postgres-0").at("/spec/resources/requests/storage").asText()).isEqualTo("20Gi");
        StatefulSetResult grown = finish(m).result();
        assertThat(grown.outcome()).as(grown.detail()).isEqualTo(Outcome.CONVERGED);
        assertThat(w.sts("shop", "postgres").at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage").asText()).isEqualTo("20Gi");

        Steps.Run again = w.locked("clickhouse");
        w.orphanDeleted("analytics", "clickhouse");
        w.resizer = c -> w.stop.request("SIGTERM");
        Convergence stopped = Convergence.resumed(steps, MemoryWorld.options(), again, Phase.REGROW);
        Convergence.Turn t = stopped.advance();
        assertThat(t).isInstanceOf(Convergence.Turn.Stopped.class);
        assertThat(w.cluster.get("StatefulSet", "analytics", "clickhouse")).as("stopped before the re-apply").isEmpty();
    }

    @Test
    void going_on_after_the_lock_ends_the_wait_for_capacity_not_the_file_systems() {
        neverGrows();
        assertThat(atTheWaitForCapacity(Convergence::goOn).advance()).as("a wait for claims that never grow, ended at once")
                .isEqualTo(new Convergence.Turn.Moved(Phase.ORPHAN_DELETE));

        assertThat(fileSystemsTurnAfter(Convergence::goOn).watches()).as("the file systems still followed").isPositive();
    }

    @Test
    void going_on_while_the_file_systems_are_followed_ends_that_wait() {
        Convergence c = advanceTo(w.startAllowed("clickhouse"), Phase.FILE_SYSTEMS);
        c.goOn();
        int watches = w.cluster.watches;
        StatefulSetResult r = ended(c.advance());
        assertThat(w.cluster.watches).isEqualTo(watches);
        assertThat(r.claims()).extracting(StatefulSetResult.ClaimResult::fileSystem).doesNotContain(FileSystem.GROWN);
    }

    @Test
    void leaving_early_ends_the_wait_for_capacity_and_every_file_systems_wait_to_come() {
        neverGrows();
        assertThat(atTheWaitForCapacity(Convergence::leaving).advance()).as("a wait for claims that never grow, ended at once")
                .isEqualTo(new Convergence.Turn.Moved(Phase.ORPHAN_DELETE));

        FileSystemsTurn left = fileSystemsTurnAfter(Convergence::leaving);
        assertThat(ended(left.turn()).outcome()).isEqualTo(Outcome.CONVERGED);
        assertThat(left.watches()).as("no file system followed").isZero();
    }

    @Test
    void leave_before_the_lock_writes_nothing_at_the_delete_gate_releases_and_past_the_delete_finishes() {
        Convergence early = w.start("postgres");
        early.leave();
        assertThat(early.position()).isEqualTo(Phase.LOCK);
        assertThat(w.cluster.realWrites()).isEmpty();

        Convergence atGate = w.start("postgres");
        atGate.answerGrow(true);
        while (!(atGate.advance() instanceof Convergence.Turn.AtGate)) {
            // up to the delete gate
        }
        atGate.leave();
        assertThat(atGate.finished().result().reason()).isEqualTo("declined");
        assertThat(w.released("shop", "postgres")).isTrue();
        assertThat(w.cluster.realDeletes()).extracting(MemoryCluster.Call::method).containsOnly("deleteRecordSecret");
        atGate.leave();
        assertThat(atGate.finished().result().reason()).as("over: leaving again changes nothing").isEqualTo("declined");

        Convergence past = advanceTo(w.startAllowed("clickhouse"), Phase.REAPPLY);
        past.leave();
        assertThat(past.finished().result().outcome()).as("a StatefulSet deleted a moment ago is re-applied").isEqualTo(Outcome.CONVERGED);
        assertThat(w.cluster.get("StatefulSet", "analytics", "clickhouse")).isPresent();
        assertThat(w.released("analytics", "clickhouse")).isTrue();
        assertThat(w.heard.ticks).as("left: the file systems read as they are, not waited for")
                .noneSatisfy(t -> assertThat(t.what()).startsWith("the kubelet to grow the file system"));
    }

    @Test
    void an_error_while_leaving_keeps_the_record_for_resume() {
        Convergence m = w.startAllowed("postgres");
        advanceTo(m, Phase.REAPPLY);
        w.cluster.edit("Lease", "shop", "stsresize-postgres", l -> ((ObjectNode) l.path("spec")).put("holderIdentity", "bob"));
        m.leave();
        assertThat(m.finished()).isEqualTo(new Convergence.Turn.Ended(null));
        assertThat(w.journal.read("shop", "postgres")).isPresent();
    }

    @Test
    void a_delete_that_does_not_finish_ends_the_run_with_its_record_kept_and_its_lease_renewed_no_more() {
        w.cluster.afterWrite = w.cluster.afterWrite.andThen(c -> {
            if (c.method().equals("deleteStatefulSetOrphan") && !c.dryRun()) {
                w.cluster.put("{'kind':'StatefulSet','metadata':{'name':'postgres','namespace':'shop','uid':'" + c.detail().substring(4)
                        + "','deletionTimestamp':'t','finalizers':['orphan']}}");
            }
        });
        Steps.Run run = w.locked("postgres");
        assertThat(run.lock.renewing()).as("held: renewed").isTrue();
        Convergence m = Convergence.resumed(steps, MemoryWorld.options(), run, Phase.GROW);
        m.allowDelete(new Steps.DeleteAllowed("shop", "postgres", run.record().uid()));
        assertThat(finish(m).result().reason()).isEqualTo("delete-incomplete");
        assertThat(w.journal.read("shop", "postgres")).as("kept for resume").isPresent();
        assertThat(run.lock.renewing()).as("ended: its Lease expires unless resume takes it").isFalse();
    }

    @Test
    void a_stop_during_the_wait_for_capacity_keeps_the_record_at_growing() {
        neverGrows();
        Convergence m = atTheWaitForCapacity();
        w.cluster.onWatch("PersistentVolumeClaim", "shop", "data-postgres-0", () -> w.stop.request("SIGINT"));
        w.cluster.onWatch("PersistentVolumeClaim", "shop", "data-postgres-1", () -> w.stop.request("SIGINT"));
        w.cluster.onWatch("PersistentVolumeClaim", "shop", "data-postgres-2", () -> w.stop.request("SIGINT"));
        Convergence.Turn t = m.advance();
        assertThat(t).isInstanceOf(Convergence.Turn.Stopped.class);
        assertThat(((Convergence.Turn.Stopped) t).phase()).isEqualTo("growing");
        assertThat(t.result().detail()).startsWith("at phase growing (SIGINT)");
        assertThat(w.journal.read("shop", "postgres")).isPresent();
    }
}
