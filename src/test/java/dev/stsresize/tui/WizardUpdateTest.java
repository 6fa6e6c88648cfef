package dev.stsresize.tui;

import static dev.stsresize.tui.UpdateTest.at;
import static dev.stsresize.tui.UpdateTest.failed;
import static dev.stsresize.tui.UpdateTest.finished;
import static dev.stsresize.tui.UpdateTest.postgresAtDeleteGate;
import static dev.stsresize.tui.UpdateTest.start;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.converge.Gate;
import dev.stsresize.converge.Phase;
import dev.stsresize.tui.Key.Kind;
import dev.stsresize.tui.UpdateTest.After;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The wizard's behaviour as plain data (as {@link UpdateTest} the list's): its gates and keys, and the live
 * converge's results as they come in.
 */
class WizardUpdateTest {
    @Nested
    class TheWizard {
        @Test
        void aOnARefusedRowSaysWhyAndOpensNothing() {
            After a = at("redis").keys("a");
            assertThat(a.state().view()).isEqualTo(View.LIST);
            assertThat(a.effects()).isEmpty();
            assertThat(a.state().flash().text()).contains("REFUSED: shrink").contains("nothing to apply");
        }

        @Test
        void opensOnAGrowRowWithTheReadOnlyCheckRunning() {
            After a = at("postgres").keys("a");
            assertThat(a.state().view()).isEqualTo(View.WIZARD);
            assertThat(a.state().wizard().status(Phase.CHECK)).isEqualTo(StepStatus.RUNNING);
            assertThat(a.effects()).singleElement().isInstanceOfSatisfying(Effect.RunStep.class, r -> {
                assertThat(r.step()).isEqualTo(Phase.CHECK);
                assertThat(r.decision().name()).isEqualTo("postgres");
                assertThat(r.uid()).as("the live UID for the delete's precondition").isNotEmpty();
            });
        }

        @Test
        void enterInTheDiffOpensTheWizardToo() {
            assertThat(at("postgres").keys(Kind.ENTER, Kind.ENTER).state().view()).isEqualTo(View.WIZARD);
        }

        @Test
        void theGrowGateWaitsForY() {
            After gate = at("postgres").keys("a").then(finished("postgres", Phase.CHECK));
            assertThat(gate.effects()).as("nothing runs before y").isEmpty();
            assertThat(gate.state().wizard().gate()).isEqualTo(Gate.CONFIRM);
            assertThat(gate.keys("x", Kind.ENTER).effects()).as("other keys do not pass the gate").isEmpty();
            After yes = gate.keys("y");
            assertThat(yes.effects()).last().isEqualTo(new Effect.RunStep(Phase.GROW, DemoDecisions.named("postgres"),
                    gate.state().wizard().uid()));
            assertThat(yes.state().wizard().status(Phase.GROW)).isEqualTo(StepStatus.RUNNING);
        }

        @Test
        void escAtTheGrowGateLeavesWithNothingWritten() {
            After left = at("postgres").keys("a").then(finished("postgres", Phase.CHECK)).keys(Kind.ESCAPE);
            assertThat(left.state().wizard()).isNull();
            assertThat(left.state().view()).isEqualTo(View.LIST);
            assertThat(left.effects()).as("the runner forgets what it checked; nothing was written, nothing to refresh")
                    .containsExactly(new Effect.CancelSteps(DemoDecisions.named("postgres")));
            assertThat(left.state().flash().text()).contains("nothing was written");
        }

        @Test
        void aStepWithoutAGateStartsWhenThePreviousOneEnds() {
            After grown = at("postgres").keys("a").then(finished("postgres", Phase.CHECK)).keys("y")
                    .then(finished("postgres", Phase.GROW));
            assertThat(grown.effects()).last().isInstanceOfSatisfying(Effect.RunStep.class, r -> assertThat(r.step()).isEqualTo(Phase.WAIT));
            assertThat(grown.state().wizard().status(Phase.WAIT)).isEqualTo(StepStatus.RUNNING);
        }

        @Test
        void theDeleteGateWaitsForTheNameTyped() {
            After gate = postgresAtDeleteGate();
            assertThat(gate.state().wizard().gate()).isEqualTo(Gate.TYPE_NAME);
            assertThat(gate.state().wizard().status(Phase.ORPHAN_DELETE)).isEqualTo(StepStatus.PENDING);
            After typed = gate.keys("postgres", Kind.ENTER);
            assertThat(typed.effects()).containsExactly(new Effect.RunStep(Phase.ORPHAN_DELETE, DemoDecisions.named("postgres"),
                    gate.state().wizard().uid()));
        }

        @Test
        void aWrongNameDoesNotPassTheDeleteGate() {
            After wrong = postgresAtDeleteGate().keys("postgre", Kind.ENTER);
            assertThat(wrong.effects()).as("no delete").isEmpty();
            assertThat(wrong.state().wizard().gate()).isEqualTo(Gate.TYPE_NAME);
            assertThat(wrong.state().wizard().typed()).as("cleared to type again").isEmpty();
            assertThat(wrong.state().wizard().status(Phase.ORPHAN_DELETE)).isEqualTo(StepStatus.PENDING);
            assertThat(wrong.state().flash().text()).contains("nothing was deleted");
            assertThat(postgresAtDeleteGate().keys("Postgres", Kind.ENTER).effects()).as("case matters").isEmpty();
            assertThat(postgresAtDeleteGate().keys("postgres ", Kind.ENTER).effects()).as("so do spaces").isEmpty();
            assertThat(postgresAtDeleteGate().keys(Kind.ENTER).effects()).as("nothing typed").isEmpty();
        }

        @Test
        void lettersAtTheNameGateAreTypedNotCommands() {
            After a = postgresAtDeleteGate().keys("q?a");
            assertThat(a.effects()).isEmpty();
            assertThat(a.state().view()).isEqualTo(View.WIZARD);
            assertThat(a.state().wizard().typed()).isEqualTo("q?a");
            assertThat(a.keys(Kind.BACKSPACE).state().wizard().typed()).isEqualTo("q?");
        }

        @Test
        void escAtTheDeleteGateLeavesTheStatefulSetUntouchedAndRefreshes() {
            After left = postgresAtDeleteGate().keys(Kind.ESCAPE);
            assertThat(left.state().wizard()).isNull();
            assertThat(left.effects()).as("no step runs at the gate, yet the runner holds the Lease there: it is told to refuse and release")
                    .containsExactly(new Effect.CancelSteps(DemoDecisions.named("postgres")), new Effect.LoadDecisions());
            assertThat(left.state().flash().text()).contains("claims are grown").contains("untouched");
            assertThat(left.then(new UiEvent.DecisionsLoaded(DemoDecisions.loaded())).state().flash().text())
                    .as("the refresh it asked for does not hide why").contains("claims are grown");
        }

        @Test
        void escIsRefusedWhileTheStatefulSetIsAbsent() {
            After reapplying = postgresAtDeleteGate().keys("postgres", Kind.ENTER).then(finished("postgres", Phase.ORPHAN_DELETE));
            assertThat(reapplying.state().wizard().status(Phase.REAPPLY)).isEqualTo(StepStatus.RUNNING);
            After esc = reapplying.keys(Kind.ESCAPE);
            assertThat(esc.state().view()).isEqualTo(View.WIZARD);
            assertThat(esc.effects()).isEmpty();
            assertThat(esc.state().flash().level()).isEqualTo(Flash.Level.WARN);
        }

        @Test
        void theWholeRunEndsVerifiedAndEscRefreshesTheList() {
            After done = postgresAtDeleteGate().keys("postgres", Kind.ENTER)
                    .then(finished("postgres", Phase.ORPHAN_DELETE), finished("postgres", Phase.REAPPLY),
                            finished("postgres", Phase.VERIFY));
            assertThat(done.state().wizard().finished()).isTrue();
            assertThat(done.state().wizard().writeInFlight()).isFalse();
            assertThat(done.state().flash().text()).contains("converged and verified");
            assertThat(done.keys("q").effects()).as("nothing in flight any more").containsExactly(new Effect.Quit());
            After back = done.keys(Kind.ESCAPE);
            assertThat(back.state().view()).isEqualTo(View.LIST);
            assertThat(back.effects()).containsExactly(new Effect.CancelSteps(DemoDecisions.named("postgres")), new Effect.LoadDecisions());
        }

        @Test
        void claimsThatOnlyLagAreGrownAndVerifiedWithoutADeleteGate() {
            After a = at("minio").keys("a");
            assertThat(a.state().wizard().steps()).containsExactly(Phase.CHECK, Phase.GROW, Phase.WAIT, Phase.VERIFY);
            After done = a.then(finished("minio", Phase.CHECK)).keys("y")
                    .then(finished("minio", Phase.GROW), finished("minio", Phase.WAIT), finished("minio", Phase.VERIFY));
            assertThat(done.state().wizard().finished()).isTrue();
            assertThat(a.then(finished("minio", Phase.CHECK)).keys("y").then(finished("minio", Phase.GROW),
                    finished("minio", Phase.WAIT)).effects()).extracting(e -> ((Effect.RunStep) e).step())
                    .as("wait and verify follow the grow by themselves").containsExactly(Phase.WAIT, Phase.VERIFY);
        }

        @Test
        void aFailedStepStopsTheWizardWithTheMessage() {
            After failed = at("postgres").keys("a").then(finished("postgres", Phase.CHECK)).keys("y")
                    .then(failed("postgres", Phase.GROW, "persistentvolumeclaims \"data-postgres-1\" is forbidden: exceeded quota"));
            assertThat(failed.state().wizard().status(Phase.GROW)).isEqualTo(StepStatus.FAILED);
            assertThat(failed.state().wizard().status(Phase.WAIT)).isEqualTo(StepStatus.PENDING);
            assertThat(failed.state().flash().text()).contains("exceeded quota");
            assertThat(failed.state().dialog()).as("the StatefulSet is still there: a flash is enough").isNull();
        }

        @Test
        void aReapplyFailureWhileAbsentIsADialogWithTheResumeCommand() {
            After failed = postgresAtDeleteGate().keys("postgres", Kind.ENTER).then(finished("postgres", Phase.ORPHAN_DELETE),
                    failed("postgres", Phase.REAPPLY, "Internal error occurred: etcdserver: request timed out"));
            assertThat(failed.state().dialog()).isInstanceOf(Dialog.Error.class);
            assertThat(failed.state().dialog().message()).contains("etcdserver: request timed out").contains("resume shop/postgres");
        }

        @Test
        void progressIsLoggedAndLateAnswersForALeftWizardAreDropped() {
            After running = at("postgres").keys("a").then(
                    new UiEvent.StepProgress("shop/postgres", Phase.CHECK, "read 3 claims", "", false));
            assertThat(running.state().wizard().log()).extracting(dev.stsresize.tui.Wizard.LogLine::message).containsExactly("read 3 claims");
            After left = running.keys(Kind.ESCAPE);
            assertThat(left.effects()).as("a running read is cancelled").contains(new Effect.CancelSteps(DemoDecisions.named("postgres")));
            After late = left.then(finished("postgres", Phase.CHECK),
                    new UiEvent.StepProgress("shop/postgres", Phase.CHECK, "late", "", false));
            assertThat(late.state()).isEqualTo(left.state());
            assertThat(late.effects()).isEmpty();
        }

        @Test
        void anAnswerForAnotherStatefulSetIsIgnored() {
            After running = at("postgres").keys("a");
            After other = running.then(finished("clickhouse", Phase.CHECK));
            assertThat(other.state().wizard().status(Phase.CHECK)).isEqualTo(StepStatus.RUNNING);
        }
    }

    /** The live converge's results: claims read, the summary, going on without waiting, the restart offered. */
    @Nested
    class LiveWizard {
        static ClaimProgress claim(String name, ClaimProgress.State state, String capacity) {
            return new ClaimProgress(name, "20Gi", capacity, "20Gi", state == ClaimProgress.State.RESIZING ? List.of("Resizing") : List.of(),
                    state, "");
        }

        static Summary summary(boolean converged, boolean fileSystemWaits) {
            List<Summary.PodCheck> pods = List.of(new Summary.PodCheck("postgres-0", "u0", "u0", "new", false));
            List<Summary.ClaimCheck> claims = List.of(new Summary.ClaimCheck("data-postgres-0", "10Gi", "20Gi",
                    fileSystemWaits ? "10Gi" : "20Gi", !fileSystemWaits, fileSystemWaits, fileSystemWaits ? "postgres-0" : ""));
            return new Summary(converged ? "converged" : "failed", converged, converged ? "" : "not-verified",
                    converged ? "adopted" : "pod postgres-0 is not adopted", "old", "new", pods, claims, List.of());
        }

        static After postgresVerified(Summary s) {
            return postgresAtDeleteGate().keys("postgres", Kind.ENTER).then(finished("postgres", Phase.ORPHAN_DELETE),
                    finished("postgres", Phase.REAPPLY), new UiEvent.Summarized("shop/postgres", s), finished("postgres", Phase.VERIFY));
        }

        @Test
        void claimsReadReplaceTheLastOnesAndOnlyForTheWizardsStatefulSet() {
            After running = at("postgres").keys("a").then(finished("postgres", Phase.CHECK)).keys("y");
            After read = running.then(new UiEvent.ClaimsRead("shop/postgres", List.of(claim("data-postgres-0", ClaimProgress.State.RESIZING, "10Gi"))),
                    new UiEvent.ClaimsRead("shop/postgres", List.of(claim("data-postgres-0", ClaimProgress.State.GROWN, "20Gi"))));
            assertThat(read.state().wizard().claims()).extracting(ClaimProgress::state).containsExactly(ClaimProgress.State.GROWN);
            assertThat(read.effects()).isEmpty();
            After other = running.then(new UiEvent.ClaimsRead("analytics/clickhouse", List.of(claim("x", ClaimProgress.State.GROWN, "1Gi"))));
            assertThat(other.state()).isEqualTo(running.state());
            After gone = running.keys(Kind.ESCAPE);
            assertThat(gone.then(new UiEvent.ClaimsRead("shop/postgres", List.of())).state()).as("no wizard, dropped").isEqualTo(gone.state());
        }

        @Test
        void aWaitTickShowsWhatTheStepWaitsForHowLongAndEachClaimsLatestWordUntilTheStepEnds() {
            After waiting = at("postgres").keys("a").then(finished("postgres", Phase.CHECK)).keys("y").then(finished("postgres", Phase.GROW));
            String failed = "VolumeResizeFailed ×3: resize volume \"pvc-1\" failed: rpc error: code = Unavailable";
            WaitStatus status = new WaitStatus("the capacity of claim data-postgres-0 to reach 20Gi", java.time.Duration.ofSeconds(80),
                    java.time.Duration.ofSeconds(520));
            After ticked = waiting.then(new UiEvent.ClaimsRead("shop/postgres", List.of(new ClaimProgress("data-postgres-0", "20Gi", "10Gi",
                    "20Gi", List.of("Resizing"), ClaimProgress.State.RESIZING, "", failed))), new UiEvent.WaitTicked("shop/postgres", status));
            assertThat(ticked.state().wizard().waiting()).isEqualTo(status);
            assertThat(ticked.effects()).isEmpty();
            String screen = VirtualScreen.draw(ticked.state(), new dev.stsresize.tui.terminal.Theme(false), Glyphs.UNICODE).text();
            assertThat(screen).contains("waiting 1m20s (8m40s left) for the capacity of claim data-postgres-0 to");
            assertThat(screen).contains("VolumeResizeFailed ×3: resize volume \"pvc-1\" failed");
            assertThat(waiting.then(new UiEvent.WaitTicked("analytics/clickhouse", status)).state()).as("another wizard's").isEqualTo(waiting.state());
            After ended = ticked.then(finished("postgres", Phase.WAIT));
            assertThat(ended.state().wizard().waiting()).as("the step ended: its wait with it").isNull();
            assertThat(VirtualScreen.draw(ended.state(), new dev.stsresize.tui.terminal.Theme(false), Glyphs.UNICODE).text())
                    .doesNotContain("waiting 1m20s");
        }

        @Test
        void cWhileWaitingForCapacityGoesOnOnceAndOnlyThen() {
            After waiting = at("postgres").keys("a").then(finished("postgres", Phase.CHECK)).keys("y").then(finished("postgres", Phase.GROW));
            assertThat(waiting.state().wizard().status(Phase.WAIT)).isEqualTo(StepStatus.RUNNING);
            After c = waiting.keys("c");
            assertThat(c.effects()).containsExactly(new Effect.GoOn(DemoDecisions.named("postgres")));
            assertThat(c.state().wizard().goingOn()).isTrue();
            assertThat(c.state().flash().text()).contains("going on: the resizer keeps working");
            assertThat(c.keys("c").effects()).as("once").isEmpty();
            After beforeWait = at("postgres").keys("a").then(finished("postgres", Phase.CHECK)).keys("y");
            assertThat(beforeWait.keys("c").effects()).as("not while growing").isEmpty();
        }

        @Test
        void escWhileWaitingForCapacityLeavesAndTheRunnerIsToldToRefuseTheDelete() {
            After waiting = at("postgres").keys("a").then(finished("postgres", Phase.CHECK)).keys("y").then(finished("postgres", Phase.GROW));
            After esc = waiting.keys(Kind.ESCAPE);
            assertThat(esc.state().wizard()).isNull();
            assertThat(esc.effects()).contains(new Effect.CancelSteps(DemoDecisions.named("postgres")), new Effect.LoadDecisions());
            assertThat(esc.state().flash().text()).contains("before the delete").contains("StatefulSet is untouched");
        }

        @Test
        void theSummaryIsKeptAndAVerifiedRunWithoutWaitingFileSystemsOffersNoRestart() {
            After done = postgresVerified(summary(true, false));
            assertThat(done.state().wizard().summary().converged()).isTrue();
            assertThat(done.state().wizard().restartOffered()).isFalse();
            assertThat(done.keys("p").effects()).isEmpty();
            assertThat(done.state().flash().text()).contains("converged and verified").doesNotContain("restart");
        }

        @Test
        void aFileSystemWaitingForItsPodOffersTheRestartAndPRunsItAsAnAppendedStep() {
            After done = postgresVerified(summary(true, true));
            assertThat(done.state().wizard().restartOffered()).isTrue();
            assertThat(done.state().flash().text()).contains("p offers the pod restarts");
            After p = done.keys("p");
            assertThat(p.effects()).containsExactly(new Effect.RunStep(Phase.RESTART, DemoDecisions.named("postgres"), p.state().wizard().uid()));
            assertThat(p.state().wizard().steps()).endsWith(Phase.RESTART);
            assertThat(p.state().wizard().status(Phase.RESTART)).isEqualTo(StepStatus.RUNNING);
            assertThat(p.state().wizard().writeInFlight()).as("evictions are writes: q asks first").isTrue();
            assertThat(p.keys("p").effects()).as("offered once").isEmpty();
            After restarted = p.then(finished("postgres", Phase.RESTART));
            assertThat(restarted.state().wizard().finished()).isTrue();
            assertThat(restarted.state().flash().text()).contains("restarted one at a time");
        }

        @Test
        void aRunThatIsNotVerifiedSaysWhatIsNotAndOffersNothing() {
            Summary s = summary(false, true);
            After failed = postgresAtDeleteGate().keys("postgres", Kind.ENTER).then(finished("postgres", Phase.ORPHAN_DELETE),
                    finished("postgres", Phase.REAPPLY), new UiEvent.Summarized("shop/postgres", s),
                    failed("postgres", Phase.VERIFY, String.join("; ", s.problems())));
            assertThat(failed.state().wizard().failed()).isTrue();
            assertThat(failed.state().wizard().restartOffered()).isFalse();
            assertThat(failed.state().flash().text()).contains("verify failed").contains("not adopted");
            assertThat(failed.state().dialog()).as("re-applied: the StatefulSet stands, a flash is enough").isNull();
        }

        @Test
        void theEndOfAStepIsNotLoggedTwice() {
            After a = at("postgres").keys("a").then(new UiEvent.StepProgress("shop/postgres", Phase.CHECK, "same words", "", false),
                    new UiEvent.StepFinished("shop/postgres", Phase.CHECK, true, "same words"));
            assertThat(a.state().wizard().log()).extracting(Wizard.LogLine::message).containsExactly("same words");
        }

        @Test
        void anInterruptedRunFoundAtStartIsOfferedAndYResumesItInAWizard() {
            InterruptedRun run = new InterruptedRun("shop", "postgres", "deleting", "bob@desk 7", "2026-12-03T10:00:00.000000Z", true);
            Loaded base = DemoDecisions.loaded();
            Loaded withRun = new Loaded(base.decisions(), base.uids(), base.context(), base.cluster(), base.scope(), base.manifest(),
                    java.util.Map.of(), List.of(run));
            After start = new After(UiState.initial(80, 24), List.of()).then(new UiEvent.DecisionsLoaded(withRun));
            assertThat(start.state().dialog()).isInstanceOf(Dialog.Resume.class);
            assertThat(start.state().dialog().message()).contains("bob@desk 7").contains("ABSENT").contains("kubectl stsresize resume shop/postgres");
            After y = start.keys("y");
            assertThat(y.state().dialog()).isNull();
            assertThat(y.state().view()).isEqualTo(View.WIZARD);
            assertThat(y.state().wizard().steps()).containsExactly(Phase.RESUME);
            assertThat(y.effects()).containsExactly(new Effect.RunStep(Phase.RESUME, DemoDecisions.named("postgres"), y.state().wizard().uid()));
            assertThat(y.keys("q").state().dialog()).as("a resume is a write in flight").isInstanceOf(Dialog.ConfirmQuit.class);
            After n = start.keys("n");
            assertThat(n.effects()).isEmpty();
            assertThat(n.state().flash().text()).contains("kubectl stsresize resume shop/postgres");
            After refreshed = new After(DemoDecisions.state(80, 24), List.of()).then(new UiEvent.DecisionsLoaded(withRun));
            assertThat(refreshed.state().dialog()).as("offered at start, not at every refresh").isNull();
        }
    }
}
