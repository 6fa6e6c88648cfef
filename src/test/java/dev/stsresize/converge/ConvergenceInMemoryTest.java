package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The state machine a driver advances (the wizard does it turn by turn): its gates, what it says of
 * itself between turns, a step refused without its precondition, a failure that ends it as a crash,
 * and the steps' answers a CLI result is built from; on the in-memory demo cluster.
 */
class ConvergenceInMemoryTest extends OnMemoryWorld {

    @Test
    void turn_by_turn_with_its_gates_and_what_it_says_of_itself() {
        Convergence m = w.start("postgres");
        assertThat(m.namespace()).isEqualTo("shop");
        assertThat(m.name()).isEqualTo("postgres");
        assertThat(m.decision().name()).isEqualTo("postgres");
        assertThat(m.phase()).isEmpty();
        assertThat(m.recordedUid()).isEmpty();
        assertThat(m.restored()).isFalse();
        assertThat(m.position()).isEqualTo(Phase.LOCK);
        assertThat(m.finished()).isNull();
        assertThat(m.advance()).isEqualTo(new Convergence.Turn.AtGate(Gate.CONFIRM));
        assertThat(w.cluster.realWrites()).isEmpty();

        m.answerGrow(true);
        assertThat(m.advance()).isEqualTo(new Convergence.Turn.Moved(Phase.GROW));
        assertThat(m.phase()).isEqualTo("locked");
        String uid = w.uid("StatefulSet", "shop", "postgres");
        assertThat(m.recordedUid()).isEqualTo(uid);
        assertThat(m.pastTheDelete()).isFalse();
        assertThat(m.advance()).isEqualTo(new Convergence.Turn.Moved(Phase.WAIT));
        assertThat(m.phase()).isEqualTo("growing");
        assertThat(m.advance()).isEqualTo(new Convergence.Turn.Moved(Phase.ORPHAN_DELETE));
        assertThat(m.advance()).isEqualTo(new Convergence.Turn.AtGate(Gate.TYPE_NAME));
        assertThat(w.cluster.realDeletes()).isEmpty();

        assertThatThrownBy(() -> {
            m.allowDelete(new Steps.DeleteAllowed("shop", "postgres", "another-uid"));
            m.advance();
        }).isInstanceOf(Steps.NotAllowed.class).hasMessageContaining("was refused: the operator has not allowed it at the gate");
        assertThat(w.cluster.realDeletes()).as("nothing sent").isEmpty();
        assertThat(m.advance()).as("the allowance is gone with its refusal").isEqualTo(new Convergence.Turn.AtGate(
                Gate.TYPE_NAME));

        m.allowDelete(new Steps.DeleteAllowed("shop", "postgres", uid));
        assertThat(m.advance()).isEqualTo(new Convergence.Turn.Moved(Phase.REAPPLY));
        // the re-apply's phase is recorded with its dry run beside the reads after the delete: answered before its write
        assertThat(m.phase()).isEqualTo("reapplying");
        assertThat(m.pastTheDelete()).isTrue();
        assertThat(m.advance()).isEqualTo(new Convergence.Turn.Moved(Phase.VERIFY));
        assertThat(m.pastTheDelete()).isTrue();
        assertThat(m.advance()).isEqualTo(new Convergence.Turn.Moved(Phase.FILE_SYSTEMS));
        assertThat(m.pastTheDelete()).as("verified, the file systems still followed").isTrue();
        Convergence.Turn end = m.advance();
        assertThat(end).isInstanceOf(Convergence.Turn.Ended.class);
        assertThat(((Convergence.Turn.Ended) end).result().outcome()).isEqualTo(Outcome.CONVERGED);
        assertThat(m.position()).isEqualTo(Phase.ENDED);
        assertThat(m.pastTheDelete()).isFalse();
        assertThat(m.finished()).isSameAs(end);
        assertThat(m.advance()).as("over: the same turn").isSameAs(end);
        w.assertSafe();
    }

    @Test
    void a_declined_delete_ends_released_and_a_set_with_nothing_to_do_is_over_at_once() {
        Convergence m = w.start("postgres");
        m.answerGrow(true);
        for (int i = 0; i < 3; i++) {
            m.advance();
        }
        m.allowDelete(new Steps.DeleteAllowed("shop", "postgres", m.recordedUid()));
        m.declineDelete();
        Convergence.Turn t = m.advance();
        assertThat(((Convergence.Turn.Ended) t).result().reason()).isEqualTo("declined");
        assertThat(w.cluster.realDeletes()).extracting(MemoryCluster.Call::method).containsOnly("deleteRecordSecret");

        Convergence done = w.start("etcd");
        assertThat(done.position()).isEqualTo(Phase.ENDED);
        assertThat(((Convergence.Turn.Ended) done.finished()).result().outcome()).isEqualTo(Outcome.NOTHING_TO_DO);
        assertThat(done.advance()).isSameAs(done.finished());
    }

    @Test
    void a_failure_ends_the_run_as_a_crash_keeping_its_record() {
        Convergence m = w.start("postgres");
        m.answerGrow(true);
        m.advance();
        w.cluster.failAlways("patchClaimStorage", MemoryCluster.error(500, "InternalError", "etcd down"));
        assertThatThrownBy(m::advance).hasMessage("etcd down");
        assertThat(m.position()).isEqualTo(Phase.ENDED);
        assertThat(m.finished()).isEqualTo(new Convergence.Turn.Ended(null));
        assertThat(w.journal.read("shop", "postgres")).as("the record kept").isPresent();
    }

    @Test
    void going_on_ends_the_wait_for_capacity_and_then_the_file_systems_wait() {
        w.resizer = c -> ((ObjectNode) c.path("status")).putObject("capacity").put("storage", "10Gi");
        Convergence m = w.start("postgres");
        m.goOn();
        m.answerGrow(true);
        m.advance();
        m.advance();
        assertThat(m.advance()).as("gone on: the delete comes next").isEqualTo(new Convergence.Turn.Moved(
                Phase.ORPHAN_DELETE));
        assertThat(w.cluster.watches).isZero();

        Convergence claimsOnly = w.startAllowed("clickhouse");
        advanceTo(claimsOnly, Phase.FILE_SYSTEMS);
        claimsOnly.leaving();
        int watches = w.cluster.watches;
        Convergence.Turn end = claimsOnly.advance();
        assertThat(((Convergence.Turn.Ended) end).result().outcome()).isEqualTo(Outcome.CONVERGED);
        assertThat(w.cluster.watches).as("the file systems not followed").isEqualTo(watches);
    }

    @Test
    void a_stop_past_the_verification_only_ends_the_file_systems_wait_the_run_ends_released() {
        Convergence m = w.startAllowed("clickhouse");
        advanceTo(m, Phase.FILE_SYSTEMS);
        w.stop.request("SIGINT");
        Convergence.Turn end = m.advance();
        assertThat(end).isInstanceOf(Convergence.Turn.Ended.class);
        assertThat(LeaseLock.unfinishedLease(w.cluster, "analytics", "clickhouse")).isEmpty();
    }

    @Test
    void a_stop_during_the_delete_wait_keeps_the_record_a_stop_request_before_resuming_writes_nothing() {
        w.cluster.afterWrite = w.cluster.afterWrite.andThen(c -> {
            if (c.method().equals("deleteStatefulSetOrphan")) {
                w.cluster.put("{'kind':'StatefulSet','metadata':{'name':'postgres','namespace':'shop','uid':'" + c.detail().substring(4)
                        + "','deletionTimestamp':'t','finalizers':['orphan']}}");
                w.stop.request("SIGHUP");
            }
        });
        List<Convergence.Turn.Stopped> stops = new ArrayList<>();
        Converger c = w.converger(GateAnswers.YES);
        StatefulSetResult r = c.converge(w.assess("postgres"), MemoryWorld.options(), true);
        assertThat(r.reason()).isEqualTo("stopped");
        assertThat(r.detail()).startsWith("at phase deleting (SIGHUP)");
        stops.addAll(c.stopped());
        assertThat(stops).singleElement().satisfies(s -> {
            assertThat(s.phase()).isEqualTo("deleting");
            assertThat(s.resumeCommand()).isEqualTo("kubectl stsresize resume shop/postgres");
        });
        assertThat(new Convergence.Turn.Stopped("shop", "db", "", r).resumeCommand()).isEmpty();

        PendingRun pending = new RunRecords(w.cluster, w.journal, "https://memory").find("shop", "postgres", true).orElseThrow();
        StatefulSetResult notYet = c.resume(pending, null, MemoryWorld.options(), true);
        assertThat(notYet.reason()).isEqualTo("stopped");
        assertThat(notYet.detail()).isEqualTo("before resuming (SIGHUP): nothing was written; the run stays recorded: `kubectl"
                + " stsresize resume shop/postgres` finishes it");
        assertThat(c.stopped()).hasSize(2);
        assertThat(c.stopped().get(1).phase()).isEqualTo("deleting");
    }

    @Test
    void resume_refuses_an_untrusted_record_a_manifest_of_another_set_and_a_held_lock() {
        w.resizer = c -> w.stop.request("SIGTERM");
        w.converger(GateAnswers.YES).converge(w.assess("postgres"), MemoryWorld.options(), true);
        PendingRun pending = new RunRecords(w.cluster, w.journal, "https://memory").find("shop", "postgres", true).orElseThrow();
        Converger c = new Converger(w.cluster, w.cluster.time, w.journal, "carol@desk 2", "https://memory", GateAnswers.YES, w.heard,
                Checkpoint.NONE, new StopRequest());

        StatefulSetResult untrusted = c.resume(pending.withProblem("forged"), null, MemoryWorld.options(), true);
        assertThat(untrusted.outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(untrusted.reason()).isEqualTo("untrusted-record");

        assertThatThrownBy(() -> c.resume(pending, MemoryWorld.declared("redis"), MemoryWorld.options(), true))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("the manifest's shop/redis is not shop/postgres");

        w.cluster.edit("Lease", "shop", "stsresize-postgres", l -> ((ObjectNode) l.path("spec")).put("holderIdentity", "dave@far 3")
                .put("renewTime", "2026-01-01T00:00:00.000000Z"));
        StatefulSetResult held = c.resume(pending, null, MemoryWorld.options(), true);
        assertThat(held.outcome()).isEqualTo(Outcome.BLOCKED);
        assertThat(held.reason()).isEqualTo("locked");

        w.cluster.edit("Lease", "shop", "stsresize-postgres", l -> ((ObjectNode) l.path("spec")).remove("holderIdentity"));
        w.cluster.failAlways("createSecret", MemoryCluster.error(500, "InternalError", "etcd"));
        w.cluster.failAlways("updateSecret", MemoryCluster.error(500, "InternalError", "etcd"));
        StatefulSetResult notKept = c.resume(pending, null, MemoryWorld.options(), true);
        assertThat(notKept.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(notKept.reason()).isEqualTo("record-not-kept");
        w.assertSafe();
    }

    @Test
    void a_run_resumed_after_its_re_apply_verifies_the_standing_statefulset() {
        Convergence m = w.startAllowed("postgres");
        advanceTo(m, Phase.VERIFY);
        // the process dies here: the Lease is no longer renewed, the record stays
        PendingRun pending = new RunRecords(w.cluster, w.journal, "https://memory").find("shop", "postgres", true).orElseThrow();
        StatefulSetResult r = w.converger(GateAnswers.YES).resume(pending, MemoryWorld.declared("postgres"), MemoryWorld.options(), true);
        assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        assertThat(w.heard.events).anySatisfy(p -> assertThat(p.message()).startsWith("StatefulSet postgres already re-created (UID "));
        assertThat(w.heard.events).anySatisfy(p -> assertThat(p.message()).startsWith("resuming the run of alice@laptop 7 started "));
        w.assertSafe();
    }

    @Test
    void pods_are_restarted_for_their_file_systems_only_under_a_standing_statefulset_that_controls_them() {
        Converger c = w.converger(GateAnswers.YES);
        StatefulSetResult r = c.converge(w.assess("clickhouse"), MemoryWorld.options(), true);
        assertThat(r.outcome()).isEqualTo(Outcome.CONVERGED);
        Map<String, String> targets = Map.of("data-clickhouse-0", "100Gi");
        w.cluster.afterWrite = w.cluster.afterWrite.andThen(x -> {
            if (x.method().equals("evictPod")) {
                w.cluster.put("{'kind':'Pod','metadata':{'name':'clickhouse-0','namespace':'analytics','uid':'new'},'status':{'conditions':"
                        + "[{'type':'Ready','status':'True'}]}}");
                w.cluster.edit("PersistentVolumeClaim", "analytics", "data-clickhouse-0", y -> {
                    ((ObjectNode) y.path("status")).remove("conditions");
                    Objects.child((ObjectNode) y.path("status"), "capacity").put("storage", "100Gi");
                });
            }
        });
        assertThat(c.restartPodsForResize("analytics", "clickhouse", targets, MemoryWorld.options())).isEmpty();
        assertThat(w.cluster.writes("evictPod")).hasSize(1);
        assertThat(c.restartPodsForResize("analytics", "clickhouse", targets, MemoryWorld.options())).as("grown now: nothing to do").isEmpty();
        assertThat(w.cluster.writes("evictPod")).hasSize(1);

        Map<String, String> other = Map.of("data-clickhouse-1", "100Gi");
        w.cluster.edit("Pod", "analytics", "clickhouse-1", p -> ((ObjectNode) p.path("metadata")).remove("ownerReferences"));
        assertThat(c.restartPodsForResize("analytics", "clickhouse", other, MemoryWorld.options())).startsWith("pod clickhouse-1 is not"
                + " controlled by StatefulSet clickhouse (UID ");
        w.cluster.remove("StatefulSet", "analytics", "clickhouse");
        assertThat(c.restartPodsForResize("analytics", "clickhouse", other, MemoryWorld.options())).isEqualTo("StatefulSet"
                + " analytics/clickhouse is absent: no pod is evicted while nothing would re-create it");
        assertThat(w.cluster.writes("evictPod")).hasSize(1);
    }
}
