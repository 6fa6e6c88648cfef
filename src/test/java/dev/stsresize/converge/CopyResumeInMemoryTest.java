package dev.stsresize.converge;

import static dev.stsresize.converge.CopyWorld.NS;
import static dev.stsresize.converge.CopyWorld.STS;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A copy whose process dies before any phase, of either pod, is finished by {@code resume} from where its record and the
 * cluster say it stands ({@link Convergence#copyResumesAt}), without repeating a write: each claim copied once, deleted
 * once, each volume's policy set once, one eviction and one orphan delete per pod.
 */
class CopyResumeInMemoryTest extends OnCopyWorld {


    /** The run advanced until it stands at {@code phase} for the {@code pod}-th pod it copies (1: web-1, 2: web-0), then left. */
    private void crashBefore(Phase phase, int pod) {
        Convergence m = c.start();
        for (int k = 1; k < pod; k++) {
            OnMemoryWorld.advanceTo(m, Phase.POD_READY);
            m.advance();
        }
        OnMemoryWorld.advanceTo(m, phase);
        // the process dies here: nothing more is written, the record and the Lease stay as they are
    }

    private Map<String, Long> count(String method) {
        Map<String, Long> n = new HashMap<>();
        for (MemoryCluster.Call w : c.sent(method)) {
            n.merge(w.name() + " " + w.detail(), 1L, Long::sum);
        }
        return n;
    }

    @ParameterizedTest(name = "crash before {0} of pod {1}")
    @CsvSource({"RETAIN,1,RETAIN", "ORPHAN_DELETE,1,RETAIN", "EVICT,1,EVICT", "COPY,1,EVICT", "REBIND,1,EVICT", "REAPPLY,1,EVICT",
            "POD_READY,1,POD_READY", "ORPHAN_DELETE,2,ORPHAN_DELETE", "EVICT,2,EVICT", "COPY,2,EVICT", "REBIND,2,EVICT", "REAPPLY,2,EVICT",
            "POD_READY,2,POD_READY", "RECLAIM,2,RECLAIM", "VERIFY,2,RECLAIM"})
    void a_run_resumed_at_each_copy_phase_goes_on_from_where_the_crash_left_it_without_repeating_a_write(Phase crash, int pod,
            Phase resumesAt) {
        crashBefore(crash, pod);
        Record recorded = c.w.journal.read(NS, STS).orElseThrow();
        Optional<ObjectNode> standing = c.cluster.get("StatefulSet", NS, STS);
        assertThat(Convergence.resumeAt(recorded, standing)).isEqualTo(resumesAt);

        StatefulSetResult r = c.resume();

        assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        for (int i = 0; i < 2; i++) {
            assertThat(c.claimOf(i).at("/status/capacity/storage").asText()).isEqualTo(CopyWorld.SIZE);
        }
        assertThat(count("createCopyPod").values()).as("each claim copied once").hasSize(2).allMatch(n -> n == 1);
        assertThat(count("deleteClaim").values()).as("each claim deleted once").hasSize(4).allMatch(n -> n == 1);
        assertThat(count("patchVolumeReclaimPolicy").values()).as("each policy set once").hasSize(6).allMatch(n -> n == 1);
        assertThat(count("evictPod")).as("one eviction per pod").isEqualTo(Map.of("web-1 ", 1L, "web-0 ", 1L));
        assertThat(c.sent("deleteStatefulSetOrphan")).hasSize(2);
        assertThat(c.w.journal.all()).isEmpty();
        c.assertSafe();
    }

    @ParameterizedTest(name = "recorded {0}, StatefulSet {1}")
    @CsvSource({"'',recorded,RETAIN", "locked,recorded,RETAIN", "retaining,recorded,RETAIN", "deleting,recorded,ORPHAN_DELETE", "copying,recorded,ORPHAN_DELETE",
            "copying,absent,EVICT", "copying,another,POD_READY", "reclaiming,absent,REAPPLY", "reclaiming,another,RECLAIM",
            "verifying,recorded,RECLAIM"})
    void where_a_stopped_copy_goes_on_follows_its_recorded_phase_and_the_statefulset_standing(String phase, String standing,
            Phase expected) {
        Record r = c.w.steps.check(c.assess(), CopyWorld.options(), true).record();
        Record at = r.withPhase(phase);
        ObjectNode sts = Objects.MAPPER.createObjectNode();
        ((ObjectNode) sts.putObject("metadata")).put("uid", standing.equals("recorded") ? r.uid() : "uid-another");
        assertThat(Convergence.resumeAt(at, standing.equals("absent") ? Optional.empty() : Optional.of(sts))).isEqualTo(expected);
    }

    @org.junit.jupiter.api.Test
    void every_ordinal_done_means_the_reclaim_or_without_the_statefulset_its_re_apply() {
        Record r = c.w.steps.check(c.assess(), CopyWorld.options(), true).record().withPhase(Phase.EVICT.recorded());
        Record done = r.withCopy(r.copy().ordinalDone(1).ordinalDone(0));
        assertThat(done.copy().current()).isNegative();
        assertThat(Convergence.resumeAt(done, Optional.empty())).isEqualTo(Phase.REAPPLY);
        assertThat(Convergence.resumeAt(done, c.cluster.get("StatefulSet", NS, STS))).isEqualTo(Phase.RECLAIM);
    }

    @org.junit.jupiter.api.Test
    void a_run_resumed_past_its_proofs_reads_the_end_from_the_objects_and_says_the_downtime_was_not_measured_here() {
        crashBefore(Phase.VERIFY, 2);
        StatefulSetResult r = c.resume();
        assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CONVERGED);
        assertThat(r.detail()).contains("(each pod down from its eviction until Ready: web-0 not measured here (taken down by an earlier"
                + " process of the run), web-1 not measured here (taken down by an earlier process of the run))");
        assertThat(r.claims()).allSatisfy(claim -> {
            assertThat(claim.from()).as("the size before, from the record").isEqualTo("1Gi");
            assertThat(claim.copied().files()).as("no proof read by this process").isEqualTo(-1);
            assertThat(claim.copied().bytes()).isEqualTo(-1);
            assertThat(claim.copied().fileSystem()).isEmpty();
        });
    }

    /** Crashed once web-1's claim moved; resumed, and stopped at once: what the StatefulSet's re-apply then brings back. */
    private StatefulSetResult stoppedOnResumeAfterTheMove(Runnable meanwhile) {
        crashBefore(Phase.REAPPLY, 1);
        meanwhile.run();
        boolean[] once = {false};
        c.cluster.afterWrite = c.cluster.afterWrite.andThen(call -> {
            if (!once[0]) {
                once[0] = true;
                c.w.stop.request("SIGINT");
            }
        });
        return c.resume();
    }

    @org.junit.jupiter.api.Test
    void a_stop_with_the_claim_moved_to_its_new_volume_re_applies_the_statefulset_on_it() {
        StatefulSetResult r = stoppedOnResumeAfterTheMove(() -> { });
        assertThat(r.outcome()).isEqualTo(Outcome.STOPPED);
        assertThat(r.detail()).endsWith("The StatefulSet is re-applied: its pods are back on their claims");
        assertThat(c.pod("web-1").orElseThrow().at("/metadata/ownerReferences/0/uid").asText()).isEqualTo(c.w.uid("StatefulSet", NS, STS));
        assertThat(c.sent("deleteClaim")).hasSize(2);
        c.assertSafe();
    }

    @org.junit.jupiter.api.Test
    void a_stop_with_the_moved_claim_not_bound_or_being_deleted_re_applies_nothing() {
        StatefulSetResult pending = stoppedOnResumeAfterTheMove(() -> c.cluster.edit("PersistentVolumeClaim", NS, "data-web-1",
                o -> ((ObjectNode) o.path("status")).put("phase", "Pending")));
        assertThat(pending.detail()).doesNotContain("re-applied");
        assertThat(c.cluster.get("StatefulSet", NS, STS)).isEmpty();

        c = new CopyWorld(home.resolve("deleting"));
        StatefulSetResult deleting = stoppedOnResumeAfterTheMove(() -> c.cluster.edit("PersistentVolumeClaim", NS, "data-web-1",
                o -> ((ObjectNode) o.path("metadata")).put("deletionTimestamp", "2026-01-01T00:00:00Z")));
        assertThat(deleting.detail()).doesNotContain("re-applied");
        assertThat(c.cluster.get("StatefulSet", NS, STS)).isEmpty();
    }
}
