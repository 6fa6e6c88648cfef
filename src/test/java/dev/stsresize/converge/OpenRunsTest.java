package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The runs the wizard holds open and what leaving or closing them means, on the in-memory demo cluster: a run before
 * its orphan delete released with nothing deleted, one past it finished, a copy under way stopped at its next safe
 * point, and one line per run that began to write saying where it stands.
 */
class OpenRunsTest extends OnMemoryWorld {
    /** What a front end keeps of a run: here its machine alone. */
    private final OpenRuns<Convergence> runs = new OpenRuns<>(m -> m);

    /** Postgres, both gates passed, advanced to {@code position}. */
    private Convergence postgresAt(Phase position) {
        return advanceTo(w.startAllowed("postgres"), position);
    }

    /** Postgres with its growth said yes to, standing at the orphan delete's gate (the operator has not typed the name). */
    private Convergence postgresAtTheDeleteGate() {
        Convergence m = w.start("postgres");
        m.answerGrow(true);
        return advanceTo(m, Phase.ORPHAN_DELETE);
    }

    /** A copy of mysql, its growth and its first orphan delete said yes to, advanced to {@code position}. */
    private Convergence mysqlCopiedTo(Phase position) {
        Convergence m = MysqlCopy.startAllowed(w);
        return advanceTo(m, position);
    }

    private static StatefulSetResult result(Convergence m) {
        assertThat(m.finished()).as("the run is over").isNotNull();
        return m.finished().result();
    }

    @Test
    void an_open_run_is_found_by_its_statefulset_and_by_nothing_else() {
        Convergence m = w.start("postgres");
        runs.open("shop/postgres", m);
        assertThat(runs.get("shop/postgres")).isSameAs(m);
        assertThat(runs.machine("shop/postgres")).containsSame(m);
        assertThat(runs.get("shop/redis")).isNull();
        assertThat(runs.machine("shop/redis")).isEmpty();
    }

    @Test
    void a_wizard_opened_again_leaves_the_run_it_opened_before_released_with_nothing_deleted() {
        Convergence before = postgresAtTheDeleteGate();
        runs.open("shop/postgres", before);
        Convergence again = w.start("postgres");
        runs.open("shop/postgres", again);

        assertThat(result(before).reason()).isEqualTo("declined");
        assertThat(w.cluster.realDeletes()).extracting(MemoryCluster.Call::method).containsOnly("deleteRecordSecret");
        assertThat(w.released("shop", "postgres")).isTrue();
        assertThat(runs.get("shop/postgres")).isSameAs(again);
        assertThat(again.finished()).as("the new run is untouched").isNull();
    }

    @Test
    void leaving_a_run_before_its_orphan_delete_releases_it_with_nothing_deleted() {
        Convergence m = postgresAtTheDeleteGate();
        runs.open("shop/postgres", m);
        runs.leave("shop/postgres");
        assertThat(result(m).reason()).isEqualTo("declined");
        assertThat(w.uid("StatefulSet", "shop", "postgres")).isNotEmpty();
        assertThat(w.released("shop", "postgres")).isTrue();
        assertThat(runs.get("shop/postgres")).isNull();
        runs.leave("shop/postgres"); // left already: nothing more happens
        runs.leave("shop/redis");
        assertThat(runs.leftAtClose()).isEmpty();
    }

    @Test
    void leaving_a_run_past_its_orphan_delete_finishes_it() {
        Convergence m = postgresAt(Phase.REAPPLY);
        runs.open("shop/postgres", m);
        assertThat(runs.finishing()).containsExactly("shop/postgres");
        runs.leave("shop/postgres");
        assertThat(result(m).outcome()).as(result(m).detail()).isEqualTo(Outcome.CONVERGED);
        assertThat(runs.finishing()).isEmpty();
        w.assertSafe();
    }

    @Test
    void closing_finishes_first_only_the_runs_past_their_delete() {
        runs.open("shop/postgres", postgresAt(Phase.VERIFY));
        runs.open("analytics/clickhouse", advanceTo(w.startAllowed("clickhouse"), Phase.WAIT));
        runs.open("analytics/kafka", w.start("kafka"));
        assertThat(runs.finishing()).containsExactly("shop/postgres");
        assertThat(runs.copying()).isEmpty();
    }

    @Test
    void closing_leaves_every_run_and_says_where_each_that_began_to_write_stands() {
        Convergence past = postgresAt(Phase.REAPPLY);
        Convergence atGate = advanceTo(w.startAllowed("clickhouse"), Phase.WAIT);
        atGate.declineDelete();
        Convergence notLocked = w.start("kafka");
        Convergence declined = w.start("elasticsearch");
        declined.answerGrow(false);
        declined.advance();
        runs.open("shop/postgres", past);
        runs.open("analytics/clickhouse", atGate);
        runs.open("analytics/kafka", notLocked);
        runs.open("shop/elasticsearch", declined);

        runs.close(w.stop);
        assertThat(w.stop.requested()).as("no copy under way: nothing to stop").isFalse();
        assertThat(result(past).outcome()).isEqualTo(Outcome.CONVERGED);
        assertThat(notLocked.finished()).as("nothing to release before the lock").isNull();
        assertThat(runs.get("shop/postgres")).isNull();
        assertThat(runs.leftAtClose()).containsExactlyInAnyOrder(
                "shop/postgres: " + result(past).sentence(),
                "analytics/clickhouse: " + result(atGate).sentence(),
                "shop/elasticsearch: failed (declined): the operator declined; nothing was written");
        assertThat(result(atGate).sentence()).startsWith("failed (declined): the operator declined the orphan delete");
        assertThat(w.cluster.realWrites()).as("kafka was never locked: nothing of it written").extracting(MemoryCluster.Call::name)
                .noneMatch(name -> name.contains("kafka"));
    }

    @Test
    void a_run_that_cannot_finish_when_closed_says_its_record_is_kept_for_resume() {
        Convergence m = postgresAt(Phase.GROW);
        w.cluster.failAlways("patchClaimStorage", MemoryCluster.error(500, "InternalError", "etcd down"));
        runs.open("shop/postgres", m);
        runs.close(w.stop);
        assertThat(m.finished()).isEqualTo(new Convergence.Turn.Ended(null));
        assertThat(runs.leftAtClose()).containsExactly("shop/postgres: left midway, its record kept; finish with: kubectl"
                + " stsresize resume shop/postgres");
        assertThat(w.journal.read("shop", "postgres")).isPresent();
    }

    @Test
    void a_run_stopped_before_it_is_closed_says_how_to_finish_it() {
        Convergence m = postgresAt(Phase.WAIT);
        w.stop.request("SIGTERM");
        Convergence.Turn stopped = m.advance();
        assertThat(stopped).isInstanceOf(Convergence.Turn.Stopped.class);
        runs.open("shop/postgres", m);
        runs.close(w.stop);
        assertThat(runs.leftAtClose()).singleElement().satisfies(line -> {
            assertThat(line).startsWith("shop/postgres: stopped: at phase growing (SIGTERM)");
            assertThat(line).containsOnlyOnce("kubectl stsresize resume shop/postgres");
        });
    }

    @Test
    void a_run_stopped_before_its_lock_has_nothing_to_resume() {
        Convergence m = w.start("postgres");
        m.answerGrow(true);
        w.stop.request("SIGINT");
        m.advance();
        runs.open("shop/postgres", m);
        runs.close(new StopRequest());
        assertThat(runs.leftAtClose()).containsExactly("shop/postgres: stopped: before the first write (SIGINT): nothing was"
                + " written and there is nothing to resume");
    }

    @Test
    void closing_stops_a_copy_under_way_at_its_next_safe_point() {
        Convergence copy = mysqlCopiedTo(Phase.EVICT);
        runs.open("legacy/mysql", copy);
        assertThat(copy.pastTheDelete()).isTrue();
        assertThat(runs.copying()).containsExactly("legacy/mysql");
        assertThat(runs.finishing()).as("a copy past its delete is stopped, not finished").isEmpty();

        runs.close(w.stop);
        assertThat(w.stop.reason()).isEqualTo("the UI closed");
        assertThat(copy.finished()).isInstanceOf(Convergence.Turn.Stopped.class);
        assertThat(runs.leftAtClose()).singleElement().satisfies(line -> assertThat(line).startsWith("legacy/mysql: stopped: at phase"
                + " reapplying (the UI closed)").containsOnlyOnce("kubectl stsresize resume legacy/mysql")
                .endsWith("The StatefulSet is re-applied: its pods are back on their claims"));
        assertThat(w.cluster.realWrites()).as("stopped before its pod went down").extracting(MemoryCluster.Call::method)
                .doesNotContain("evictPod");
        assertThat(w.uid("StatefulSet", "legacy", "mysql")).as("re-applied over the pod's own claims").isNotEmpty();
    }

    @Test
    void a_copy_not_yet_locked_is_not_under_way() {
        Convergence copy = mysqlCopiedTo(Phase.LOCK);
        runs.open("legacy/mysql", copy);
        assertThat(runs.copying()).isEmpty();
        runs.close(w.stop);
        assertThat(w.stop.requested()).isFalse();
        assertThat(runs.leftAtClose()).isEmpty();
    }
}
