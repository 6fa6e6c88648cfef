package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The small values a view shows: phase times, events, file system words, steps, the operator's name. */
class ConvergeWordsTest {
    @org.junit.jupiter.api.io.TempDir java.nio.file.Path home;

    private static String words(long millis) {
        return new StatefulSetResult.PhaseTime("grow", Duration.ofMillis(millis)).words();
    }

    @Test
    void a_phase_time_is_said_in_tenths_of_a_second_minutes_past_sixty_seconds() {
        assertThat(words(349)).isEqualTo("0.3s");
        assertThat(words(12_400)).isEqualTo("12.4s");
        assertThat(words(59_999)).isEqualTo("59.9s");
        assertThat(words(60_000)).isEqualTo("1m00.0s");
        assertThat(words(62_500)).isEqualTo("1m02.5s");
        assertThat(words(69_900)).isEqualTo("1m09.9s");
        assertThat(words(70_000)).isEqualTo("1m10.0s");
        assertThat(words(3_725_000)).isEqualTo("62m05.0s");
    }

    @Test
    void an_event_says_whether_it_is_the_outcome_and_its_kubectl_equivalent() {
        ProgressEvent write = ProgressEvent.write("shop", "db", Phase.GROW, "grew", new Write.ClaimPatch("shop", "data-db-0", "20Gi"));
        assertThat(write.kubectl()).isEqualTo(new Write.ClaimPatch("shop", "data-db-0", "20Gi").kubectl()).isNotEmpty();
        assertThat(write.isOutcome()).isFalse();
        assertThat(ProgressEvent.info("shop", "db", Phase.READ, "read").kubectl()).isEmpty();
        assertThat(new ProgressEvent("shop", "db", Phase.RECORD, "converged", null, false).isOutcome()).isTrue();
        assertThat(ProgressEvent.warn("shop", "db", Phase.VERIFY, "x").warning()).isTrue();
        assertThat(Phase.ORPHAN_DELETE.label()).isEqualTo("orphan-delete");
        assertThat(Phase.FILE_SYSTEMS.label()).isEqualTo("file-systems");
    }

    @Test
    void a_file_system_says_its_word_whether_the_pod_can_use_it_and_whether_a_pod_waits() {
        assertThat(FileSystem.GROWN.label()).isEqualTo("grown");
        assertThat(FileSystem.WAITS_FOR_RESTART.label()).isEqualTo("waits-for-restart");
        assertThat(FileSystem.NO_POD.label()).isEqualTo("no-pod");
        assertThat(FileSystem.GROWN.usable()).isTrue();
        assertThat(FileSystem.PENDING.usable()).isFalse();
        assertThat(FileSystem.GROWN.keepsAPodWaiting()).isFalse();
        assertThat(FileSystem.NO_POD.keepsAPodWaiting()).isFalse();
        assertThat(FileSystem.PENDING.keepsAPodWaiting()).isTrue();
    }

    @Test
    void the_operator_is_user_at_host_and_pid() {
        long pid = ProcessHandle.current().pid();
        assertThat(Operator.identify(Map.of("USER", "alice", "HOSTNAME", "laptop"))).isEqualTo("alice@laptop " + pid);
        assertThat(Operator.identify(Map.of("USER", "alice", "HOSTNAME", " "))).startsWith("alice@").doesNotContain("@ ")
                .endsWith(" " + pid);
        assertThat(Operator.identify(Map.of("USER", "alice"))).startsWith("alice@").doesNotStartWith("alice@ ");
    }

    @Test
    void an_assessed_statefulset_keeps_its_failure_and_decision_through_its_changes() {
        MemoryWorld w = new MemoryWorld(home);
        Assessed a = w.assess(MemoryWorld.declared("postgres"));
        assertThat(a.name()).isEqualTo("postgres");
        assertThat(a.namespace()).isEqualTo("shop");
        assertThat(a.failed("boom").failure()).isEqualTo("boom");
        assertThat(a.failed("boom").decision()).isEqualTo(a.decision());
        Assessed refused = a.failed("boom").with(Assessor.refusal(a.decision(), dev.stsresize.plan.Reason.SHRINK, "smaller"));
        assertThat(refused.decision().verdict()).isEqualTo(dev.stsresize.plan.Verdict.REFUSED);
        assertThat(refused.failure()).as("a refusal keeps the failure").isEqualTo("boom");
        assertThat(refused.live()).isSameAs(a.live());
        assertThat(List.of(a.reapply(), a.declared())).doesNotContainNull();
    }

    @Test
    void a_reread_result_drops_the_claims_warnings_no_longer_true_and_keeps_the_others() {
        MemoryWorld w = new MemoryWorld(home);
        StatefulSetResult.ClaimResult c0 = new StatefulSetResult.ClaimResult("data-postgres-0", "10Gi", "10Gi", "5Gi")
                .withFileSystem(FileSystem.PENDING, -1);
        StatefulSetResult.ClaimResult c1 = new StatefulSetResult.ClaimResult("data-postgres-1", "10Gi", "10Gi", "5Gi")
                .withFileSystem(FileSystem.PENDING, 123);
        StatefulSetResult failed = new StatefulSetResult("shop", "postgres", Outcome.FAILED, "resize-timeout", "timed out", List.of(c0, c1),
                List.of(), List.of("claim data-postgres-0 has not grown yet: capacity 5Gi", "claim data-postgres-1 waits for a file system"
                        + " resize on pod x", "an unrelated warning"));
        StatefulSetResult now = w.converger(GateAnswers.YES).reread(failed);
        assertThat(now.warnings()).containsExactly("an unrelated warning");
        assertThat(now.claims()).extracting(StatefulSetResult.ClaimResult::capacity).containsExactly("10Gi", "10Gi");
        assertThat(now.claims().get(0).fileSystem()).as("grown since, as the claim says now").isEqualTo(FileSystem.GROWN);
        assertThat(now.claims().get(1).fileSystem()).as("its summary said otherwise").isEqualTo(FileSystem.PENDING);

        StatefulSetResult untouched = new StatefulSetResult("shop", "postgres", Outcome.FAILED, "x", "d", List.of(c0), List.of(),
                List.of("claim data-postgres-0 is fine", "other"));
        assertThat(w.converger(GateAnswers.YES).reread(untouched)).isSameAs(untouched);
        StatefulSetResult noClaims = new StatefulSetResult("shop", "postgres", Outcome.CONVERGED, "", "d", List.of(), List.of(), List.of());
        assertThat(w.converger(GateAnswers.YES).reread(noClaims)).isSameAs(noClaims);
    }

    @Test
    void a_reread_says_the_file_systems_sentence_anew_a_claim_still_short_a_claim_gone_and_a_target_unreadable() {
        MemoryWorld w = new MemoryWorld(home);
        StatefulSetResult.ClaimResult c0 = new StatefulSetResult.ClaimResult("data-postgres-0", "5Gi", "10Gi", "5Gi")
                .withFileSystem(FileSystem.PENDING, -1);
        StatefulSetResult.ClaimResult c1 = new StatefulSetResult.ClaimResult("data-postgres-1", "10Gi", "20Gi", "10Gi");
        StatefulSetResult.ClaimResult c9 = new StatefulSetResult.ClaimResult("data-postgres-9", "10Gi", "20Gi", "10Gi");
        StatefulSetResult.ClaimResult bad = new StatefulSetResult.ClaimResult("data-postgres-2", "10Gi", "garbage", "10Gi");
        w.cluster.edit("PersistentVolumeClaim", "shop", "data-postgres-1",
                x -> ((com.fasterxml.jackson.databind.node.ObjectNode) x.at("/spec/resources/requests")).put("storage", "20Gi"));
        String before = FileSystems.sentence(List.of(c0));
        StatefulSetResult r = new StatefulSetResult("shop", "postgres", Outcome.CONVERGED, "", "adopted; " + before,
                List.of(c0, c1, c9, bad), List.of(), List.of());
        StatefulSetResult now = w.converger(GateAnswers.YES).reread(r);
        assertThat(now.detail()).isEqualTo("adopted; file system grown: the pods can write to the new space");
        assertThat(now.warnings()).singleElement().satisfies(x -> assertThat(x).startsWith("claim data-postgres-1 has not grown yet"));
        assertThat(now.claims().get(2).capacity()).as("gone").isEmpty();
        assertThat(now.claims().get(3).capacity()).isEqualTo("10Gi");
    }

    @Test
    void a_claims_only_run_resumed_with_its_manifest_stays_a_claims_only_run() {
        MemoryWorld w = new MemoryWorld(home);
        w.resizer = c -> w.stop.request("SIGTERM");
        w.converger(GateAnswers.YES).converge(w.assess(MemoryWorld.declared("minio")), MemoryWorld.options(), true);
        w.resizer = c -> { };
        PendingRun pending = new RunRecords(w.cluster, w.journal, "https://memory").find("shop", "minio", true).orElseThrow();
        String uid = w.uid("StatefulSet", "shop", "minio");
        StatefulSetResult r = new Converger(w.cluster, w.cluster.time, w.journal, "alice@laptop 8", "https://memory", GateAnswers.YES, w.heard,
                Checkpoint.NONE, new StopRequest()).resume(pending, MemoryWorld.declared("minio"), MemoryWorld.options(), true);
        assertThat(r.outcome()).as(r.detail()).isEqualTo(Outcome.CLAIMS_GROWN);
        assertThat(w.uid("StatefulSet", "shop", "minio")).isEqualTo(uid);
        assertThat(w.cluster.realDeletes()).extracting(MemoryCluster.Call::method).containsOnly("deleteRecordSecret");
    }
}
