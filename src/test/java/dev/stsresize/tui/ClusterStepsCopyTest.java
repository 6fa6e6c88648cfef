package dev.stsresize.tui;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stsresize.converge.Checkpoint;
import dev.stsresize.converge.ConvergeOptions;
import dev.stsresize.converge.Journal;
import dev.stsresize.converge.Phase;
import dev.stsresize.converge.StopRequest;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Refusal;
import dev.stsresize.plan.Verdict;
import dev.stsresize.sim.http.RecordedRequest;
import dev.stsresize.tui.source.ClusterSteps;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The copy demo through the wizard's runner on the simulated cluster, as the list's C and the wizard drive it without
 * {@code --copy}: the refused row decided again with the opt-in, then the copy's checklist run on the one machine, ending
 * converged with each claim under its own name on a new volume, the old volumes kept.
 */
class ClusterStepsCopyTest {
    @TempDir Path home;
    private DemoOnSim demo;

    @BeforeEach
    void start() throws Exception {
        demo = DemoOnSim.startCopy(home);
    }

    @AfterEach
    void stop() {
        demo.close();
    }

    private ClusterSteps steps() {
        // as ui without --copy: the opt-in is the row's (the list's C), never the command's
        return new ClusterSteps(demo.cluster, Clock.systemUTC(), new Journal(home.resolve("state")), "alice@laptop 1", demo.sim.url(),
                demo.source::declared, ConvergeOptions.defaults().withTimeout(Duration.ofSeconds(60)), Checkpoint.NONE, new StopRequest());
    }

    private Map<String, String> volumes() {
        Map<String, String> out = new HashMap<>();
        for (int i = 0; i < 2; i++) {
            out.put("data-web-" + i, demo.sim.get("v1", "PersistentVolumeClaim", "files", "data-web-" + i).path("spec").path("volumeName").asText());
        }
        return out;
    }

    @Test
    void theRefusedRowDecidedWithTheCopyRunsTheCopysChecklistToEachClaimOnANewVolume() throws Exception {
        Loaded first = demo.source.load();
        Decision refused = first.decisions().get(0);
        assertThat(refused).isInstanceOfSatisfying(Refusal.class, r -> assertThat(r.copyPossible()).as(r.detail()).isTrue());

        Decision copy = demo.source.decideCopy(refused);
        assertThat(copy.verdict()).as(copy.detail()).isEqualTo(Verdict.COPY);
        assertThat(demo.source.load().decisions().get(0).verdict()).as("the list keeps the row's opt-in when read again")
                .isEqualTo(Verdict.COPY);

        Map<String, String> before = volumes();
        String uid = first.uid(refused);
        ClusterSteps steps = steps();
        ClusterStepsTest.Seen seen = new ClusterStepsTest.Seen();
        for (Phase row : Phase.checklist(copy)) {
            StepRunner.Outcome o = steps.run(row, copy, uid, seen);
            assertThat(o.ok()).as(row + ": " + o.message() + "\n" + seen.messages).isTrue();
        }
        Map<String, String> after = volumes();
        for (String claim : before.keySet()) {
            assertThat(after.get(claim)).as(claim + " on a new volume").isNotEmpty().isNotEqualTo(before.get(claim));
            JsonNode c = demo.sim.get("v1", "PersistentVolumeClaim", "files", claim);
            assertThat(c.path("status").path("phase").asText()).isEqualTo("Bound");
            assertThat(c.path("status").path("capacity").path("storage").asText()).isEqualTo("2Gi");
            JsonNode old = demo.sim.get("v1", "PersistentVolume", "", before.get(claim));
            assertThat(old.path("spec").path("persistentVolumeReclaimPolicy").asText()).as("the old volume kept").isEqualTo("Retain");
        }
        assertThat(seen.messages).as("the copy's row tells which pod is down, ordinal by ordinal")
                .contains("pod web-1 is down: its claims are copied next", "pod web-0 is down: its claims are copied next");
        // the table moves with the copy, claim by claim, as read from the claims and copy pods
        assertThat(seen.claims.get(0)).as("the first reading: every claim still to copy").extracting(ClaimProgress::state)
                .containsOnly(ClaimProgress.State.TO_COPY).hasSize(2);
        assertThat(seen.claims.stream().flatMap(List::stream).filter(c -> c.name().equals("data-web-1")).map(ClaimProgress::state)
                .distinct()).as("data-web-1's states in the order they were read").containsSubsequence(ClaimProgress.State.TO_COPY,
                        ClaimProgress.State.COPYING, ClaimProgress.State.COPIED);
        assertThat(seen.claims.get(seen.claims.size() - 1)).as("the last reading: every claim on its new volume at the target")
                .allSatisfy(c -> assertThat(c.state()).isEqualTo(ClaimProgress.State.COPIED)).extracting(ClaimProgress::capacity)
                .containsOnly("2Gi");
        Summary s = seen.summaries.get(seen.summaries.size() - 1);
        assertThat(s.converged()).isTrue();
        assertThat(s.problems()).isEmpty();
        assertThat(s.detail()).as("the end screen says what apply says: the old volumes and the command that frees them")
                .contains("kubectl delete pv " + before.get("data-web-0")).contains(before.get("data-web-1"));
        assertThat(demo.sim.requests()).as("no PersistentVolume deleted")
                .noneMatch(r -> r.method().equals("DELETE") && r.path().contains("/persistentvolumes/"));
        assertThat(demo.sim.requests().stream().filter(r -> r.method().equals("POST") && r.path().endsWith("/pods")
                && !r.dryRun()).map(RecordedRequest::path)).as("a copy pod per claim").hasSize(2);
    }

    @Test
    void withoutTheRowsOptInTheWizardStartsNoCopy() throws Exception {
        Loaded first = demo.source.load();
        Decision refused = first.decisions().get(0);
        StepRunner.Outcome o = steps().run(Phase.CHECK, refused, first.uid(refused), new ClusterStepsTest.Seen());
        assertThat(o.ok()).as("a refused row is re-read refused, nothing started: " + o.message()).isFalse();
        assertThat(ClusterStepsTest.irreversible(demo.sim.requests())).isEmpty();
    }
}
