package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The converger's gates and its later restart, on the in-memory demo cluster: a growth in place asks the orphan delete's
 * own question (never the copy's), and the pods of a run's claims are restarted for their file systems when asked.
 */
class ConvergerGatesInMemoryTest extends OnMemoryWorld {
    /** Allows the growth and any copy, but not the orphan delete of a StatefulSet. */
    private static final GateAnswers COPY_ONLY = answering(true, false, true);

    @Test
    void a_growth_in_place_is_deleted_only_on_the_orphan_deletes_own_answer() {
        StatefulSetResult r = w.converger(COPY_ONLY).converge(w.assess("postgres"), MemoryWorld.options(), true);
        assertThat(r.reason()).isEqualTo("declined");
        assertThat(w.cluster.realDeletes()).extracting(MemoryCluster.Call::method).doesNotContain("deleteStatefulSetOrphan");
        assertThat(w.uid("StatefulSet", "shop", "postgres")).isNotEmpty();
    }

    @Test
    void the_pods_of_the_claims_a_decision_grows_are_restarted_for_their_file_systems() {
        Converger converger = w.converger(GateAnswers.YES);
        Assessed clickhouse = w.assess("clickhouse");
        converger.converge(clickhouse, MemoryWorld.options(), true);
        w.cluster.failAlways("evictPod", MemoryCluster.error(429, "TooManyRequests", "Cannot evict pod as it would violate the pod's"
                + " disruption budget."));
        String problem = converger.restartPodsForResize(clickhouse.decision(), MemoryWorld.options());
        assertThat(problem).matches("evicting pod clickhouse-[01] .*").contains("is refused by its PodDisruptionBudget");
        assertThat(w.cluster.writes("evictPod")).extracting(MemoryCluster.Call::name).containsAnyOf("clickhouse-0", "clickhouse-1");
    }
}
