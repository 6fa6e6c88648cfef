package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/**
 * The run as a front end draws it ({@link Convergence#view}) and the words its turns say, on the in-memory demo
 * cluster: the phase and the checklist row it stands in, what the wait for capacity ended on, how the run ended, and
 * the gates a row passes for it.
 */
class ConvergenceViewTest extends OnMemoryWorld {
    /** Postgres with its growth said yes to, told {@code atTheWait} after its patches, through its wait: what it says then. */
    private String saidAfterTheWait(String name, java.util.function.Consumer<Convergence> atTheWait) {
        Convergence m = w.start(name);
        m.answerGrow(true);
        advanceTo(m, Phase.WAIT);
        atTheWait.accept(m);
        Convergence.Turn t = m.advance();
        assertThat(t).as(m.view().ending()).isInstanceOf(Convergence.Turn.Moved.class);
        return m.said();
    }

    @Test
    void a_new_run_is_drawn_in_the_grow_row_before_its_lock_with_nothing_said() {
        Convergence m = w.start("postgres");
        Convergence.View v = m.view();
        assertThat(v).isEqualTo(new Convergence.View(Phase.LOCK, Phase.GROW, "", null, false));
        assertThat(v.inRow(Phase.GROW)).isTrue();
        assertThat(v.inRow(Phase.LOCK)).as("the lock has no row of its own").isFalse();
        assertThat(v.ending()).isEqualTo("the run has not ended");
        assertThat(m.said()).isEmpty();
    }

    @Test
    void each_turn_says_what_it_did_and_the_view_follows_the_rows() {
        Convergence m = w.startAllowed("postgres");
        m.advance();
        assertThat(m.view()).isEqualTo(new Convergence.View(Phase.GROW, Phase.GROW, "the Lease and the record hold the run", null,
                false));
        m.advance();
        assertThat(m.view().row()).isEqualTo(Phase.WAIT);
        assertThat(m.said()).isEqualTo("3 claim(s) patched; the Lease holds the run while the claims grow");
        advanceTo(m, Phase.FILE_SYSTEMS);
        assertThat(m.view().row()).as("the file systems' wait is part of the verification's row").isEqualTo(Phase.VERIFY);
        Convergence.Turn end = m.advance();
        Convergence.View v = m.view();
        assertThat(v.phase()).isEqualTo(Phase.ENDED);
        assertThat(v.ended()).isSameAs(end);
        assertThat(v.inRow(Phase.ENDED)).as("an ended run stands in no row").isFalse();
        assertThat(v.ending()).isEqualTo(end.result().sentence()).startsWith("converged: ");
    }

    @Test
    void a_resumed_run_s_regrow_is_drawn_in_the_re_apply_row() {
        Convergence resumed = Convergence.resumed(steps, MemoryWorld.options(), w.locked("postgres"), Phase.REGROW);
        assertThat(resumed.view().row()).isEqualTo(Phase.REAPPLY);
        assertThat(resumed.decision()).as("its record says what to do").isNull();
        assertThat(resumed.name()).isEqualTo("postgres");
    }

    @Test
    void a_run_whose_re_apply_put_the_backup_back_is_drawn_restored() {
        w.cluster.failNext("applyStatefulSet", null); // the assessment's dry run
        Convergence m = w.startAllowed("postgres");
        advanceTo(m, Phase.REAPPLY);
        w.cluster.failNext("applyStatefulSet", MemoryCluster.error(500, "InternalError", "webhook down"));
        m.advance();
        assertThat(m.said()).isEqualTo("the re-apply FAILED and the backup was restored: the pods have their owner again, with the old"
                + " claim templates");
        assertThat(m.view().restored()).isTrue();
        assertThat(finish(m).result().reason()).isEqualTo("reapply-failed");
        assertThat(m.view().restored()).isTrue();
    }

    @Test
    void a_run_ended_by_an_error_says_its_record_stays_for_resume() {
        Convergence m = w.startAllowed("postgres");
        m.advance();
        w.cluster.failAlways("patchClaimStorage", MemoryCluster.error(500, "InternalError", "etcd down"));
        assertThatThrownBy(m::advance).hasMessage("etcd down");
        assertThat(m.view().ending()).isEqualTo("the run stopped on an error; its record stays for resume");
        assertThat(m.view().ended()).isEqualTo(new Convergence.Turn.Ended(null));
    }

    @Test
    void every_claim_at_its_capacity_is_said_reached() {
        assertThat(saidAfterTheWait("postgres", m -> { })).isEqualTo("capacity reached on 3 claim(s)");
    }

    @Test
    void going_on_while_claims_still_grow_says_how_many_the_resizer_keeps_growing() {
        w.resizer = c -> ((ObjectNode) c.path("status")).putObject("capacity").put("storage", "10Gi");
        assertThat(saidAfterTheWait("postgres", Convergence::goOn)).isEqualTo("went on without waiting: the resizer keeps growing 3"
                + " claim(s)");
    }

    @Test
    void going_on_while_a_request_was_put_back_below_its_target_counts_that_claim_as_still_growing() {
        w.resizer = c -> {
            ((ObjectNode) c.at("/spec/resources/requests")).put("storage", "10Gi");
            ((ObjectNode) c.path("status")).putObject("capacity").put("storage", "10Gi");
        };
        assertThat(saidAfterTheWait("postgres", Convergence::goOn)).isEqualTo("went on without waiting: the resizer keeps growing 3"
                + " claim(s)");
    }

    @Test
    void going_on_after_every_claim_grew_says_they_reached_their_capacity() {
        // each patch answered with the claim grown already: the wait has nothing left to follow when it is told to go on
        w.cluster.patchAnswer = c -> {
            Objects.child(Objects.child(c, "status"), "capacity").put("storage", c.at("/spec/resources/requests/storage").asText());
            return c;
        };
        assertThat(saidAfterTheWait("postgres", Convergence::goOn)).isEqualTo("capacity reached on 3 claim(s)");
    }

    @Test
    void volumes_grown_offline_say_their_file_systems_follow_after_the_re_apply() {
        assertThat(saidAfterTheWait("clickhouse", m -> { })).isEqualTo("every volume grew; 2 file system(s) not grown by the kubelet"
                + " yet (followed after the re-apply)");
    }

    @Test
    void some_volumes_grown_offline_and_some_at_capacity_are_said_apart() {
        w.resizer = c -> {
            if (Objects.name(c).endsWith("-0")) {
                ObjectNode status = (ObjectNode) c.path("status");
                status.remove("conditions");
                status.remove("allocatedResourceStatuses");
                status.putObject("capacity").put("storage", c.at("/spec/resources/requests/storage").asText());
            }
        };
        assertThat(saidAfterTheWait("clickhouse", m -> { })).isEqualTo("capacity reached on 1 claim(s); 1 file system(s) not grown by"
                + " the kubelet yet (followed after the re-apply)");
    }

    @Test
    void a_row_passes_its_gate_for_the_run_and_no_gate_passes_nothing() {
        Convergence m = w.start("postgres");
        m.passed(Gate.NONE, "");
        assertThat(m.advance()).isEqualTo(new Convergence.Turn.AtGate(Gate.CONFIRM));
        m.passed(Gate.CONFIRM, "");
        assertThat(m.advance()).isEqualTo(new Convergence.Turn.Moved(Phase.GROW));
        advanceTo(m, Phase.ORPHAN_DELETE);
        m.passed(Gate.NONE, "");
        assertThat(m.advance()).isEqualTo(new Convergence.Turn.AtGate(Gate.TYPE_NAME));
        m.passed(Gate.TYPE_NAME, w.uid("StatefulSet", "shop", "postgres"));
        assertThat(m.advance()).isEqualTo(new Convergence.Turn.Moved(Phase.REAPPLY));
        assertThat(w.cluster.realDeletes()).singleElement().satisfies(d -> {
            assertThat(d.namespace()).isEqualTo("shop");
            assertThat(d.name()).isEqualTo("postgres");
        });
    }

    @Test
    void a_copy_is_drawn_in_its_own_checklist_s_rows() {
        Convergence m = MysqlCopy.start(w);
        assertThat(m.view().row()).as("the Lease is taken in the retain's row").isEqualTo(Phase.RETAIN);
        m.answerGrow(true);
        m.advance();
        assertThat(m.view().row()).isEqualTo(Phase.RETAIN);
        m.advance();
        assertThat(m.view().row()).as("the first orphan delete has its own row").isEqualTo(Phase.ORPHAN_DELETE);
        m.allowDelete(new Steps.DeleteAllowed("legacy", "mysql", w.uid("StatefulSet", "legacy", "mysql")));
        m.advance();
        assertThat(m.view()).isEqualTo(new Convergence.View(Phase.EVICT, Phase.COPY, "StatefulSet gone (404); pods and claims re-read:"
                + " each still there with its UID", null, false));
    }

    @Test
    void a_delete_that_lost_a_pod_says_so_in_its_turn() {
        Convergence m = advanceTo(w.startAllowed("postgres"), Phase.ORPHAN_DELETE);
        w.cluster.afterWrite = w.cluster.afterWrite.andThen(c -> {
            if (c.method().equals("deleteStatefulSetOrphan") && !c.dryRun()) {
                w.cluster.remove("Pod", "shop", "postgres-2");
            }
        });
        m.advance();
        assertThat(m.said()).isEqualTo("StatefulSet gone (404), with the warning above");
        assertThat(w.heard.events).anySatisfy(p -> assertThat(p.message()).isEqualTo("after the orphan delete: pod postgres-2 is gone"));
    }

    @Test
    void a_stopped_run_says_what_its_events_had_to_say() {
        w.cluster.failAlways("createEvent", MemoryCluster.error(500, "InternalError", "events store down"));
        Convergence m = advanceTo(w.startAllowed("postgres"), Phase.WAIT);
        w.stop.request("SIGTERM");
        assertThat(m.advance()).isInstanceOf(Convergence.Turn.Stopped.class);
        assertThat(w.heard.events).anySatisfy(p -> {
            assertThat(p.message()).startsWith("could not record Event StorageRequestGrown on ").endsWith(": events store down");
            assertThat(p.warning()).isTrue();
        });
    }

    @Test
    void a_stop_while_a_copy_runs_ends_the_run_stopped_with_the_statefulset_back_over_the_pod_s_claims() {
        Convergence m = MysqlCopy.startAllowed(w);
        advanceTo(m, Phase.COPY);
        w.cluster.afterWrite = w.cluster.afterWrite.andThen(c -> {
            if (c.method().equals("createCopyPod") && !c.dryRun()) {
                w.stop.request("SIGTERM");
            }
        });
        Convergence.Turn t = m.advance();
        assertThat(t).isInstanceOf(Convergence.Turn.Stopped.class);
        assertThat(m.view().ending()).startsWith("stopped: at phase ").contains("(SIGTERM)")
                .contains("`kubectl stsresize resume legacy/mysql` finishes it");
        assertThat(w.uid("StatefulSet", "legacy", "mysql")).isNotEmpty();
    }

    @Test
    void a_copy_that_does_not_end_in_time_ends_its_turn_with_the_statefulset_back() {
        Convergence m = MysqlCopy.startAllowed(w);
        advanceTo(m, Phase.COPY);
        // the in-memory cluster runs no copy pod: the copy does not end before --timeout
        Convergence.Turn t = m.advance();
        assertThat(t).isInstanceOf(Convergence.Turn.Ended.class).isSameAs(m.finished());
        assertThat(t.result().reason()).isEqualTo("copy-stopped");
        assertThat(w.uid("StatefulSet", "legacy", "mysql")).isNotEmpty();
    }
}
