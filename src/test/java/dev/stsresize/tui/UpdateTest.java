package dev.stsresize.tui;

import dev.stsresize.converge.Phase;
import dev.stsresize.converge.Gate;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Verdict;
import dev.stsresize.tui.Key.Kind;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The UI's behaviour as plain data: a state and events in, the next state and the effects out. */
class UpdateTest {
    /** The state after some events, and the effects asked for by the events of the last call, in order. */
    record After(UiState state, List<Effect> effects) {
        After then(UiEvent... events) {
            UiState s = state;
            List<Effect> all = new ArrayList<>();
            for (UiEvent e : events) {
                Transition t = Update.apply(s, e);
                s = t.state();
                all.addAll(t.effects());
            }
            return new After(s, all);
        }

        After keys(Object... keys) {
            List<UiEvent> events = new ArrayList<>();
            for (Object k : keys) {
                if (k instanceof Kind kind) {
                    events.add(new UiEvent.Pressed(Key.of(kind)));
                } else {
                    for (char c : k.toString().toCharArray()) {
                        events.add(new UiEvent.Pressed(Key.ch(c)));
                    }
                }
            }
            return then(events.toArray(UiEvent[]::new));
        }

        Decision selected() {
            return state.selected();
        }
    }

    static After start() {
        return new After(DemoDecisions.state(80, 24), List.of());
    }

    static After at(String name) {
        After a = start();
        List<Decision> v = a.state.visible();
        for (int i = 0; i < v.size(); i++) {
            if (v.get(i).name().equals(name)) {
                return new After(a.state.withCursor(i), List.of());
            }
        }
        throw new AssertionError(name + " is not in the demo");
    }

    static UiEvent finished(String name, Phase step) {
        Decision d = DemoDecisions.named(name);
        return new UiEvent.StepFinished(d.namespace() + "/" + name, step, true, step.label() + " done");
    }

    static UiEvent failed(String name, Phase step, String why) {
        Decision d = DemoDecisions.named(name);
        return new UiEvent.StepFinished(d.namespace() + "/" + name, step, false, why);
    }

    /** postgres's wizard at the delete gate: checked, grown, capacity reached. */
    static After postgresAtDeleteGate() {
        return at("postgres").keys("a").then(finished("postgres", Phase.CHECK)).keys("y")
                .then(finished("postgres", Phase.GROW), finished("postgres", Phase.WAIT));
    }

    @Nested
    class Navigation {
        @Test
        void jAndDownMoveDownKAndUpMoveUpAndTheEndsHold() {
            After a = start();
            assertThat(a.keys("k").state.cursor()).as("k at the top stays").isZero();
            assertThat(a.keys("j", Kind.DOWN).state.cursor()).isEqualTo(2);
            assertThat(a.keys("jj", Kind.UP).state.cursor()).isEqualTo(1);
            int last = a.state.visible().size() - 1;
            assertThat(a.keys("G").state.cursor()).isEqualTo(last);
            assertThat(a.keys("G", "j").state.cursor()).as("j at the bottom stays").isEqualTo(last);
            assertThat(a.keys("G", "g").state.cursor()).isZero();
            assertThat(a.keys(Kind.END, Kind.HOME).state.cursor()).isZero();
        }

        @Test
        void pageDownMovesAPageAndStopsAtTheLastRow() {
            After a = new After(DemoDecisions.state(80, 10), List.of());
            int page = Layout.listRows(10);
            assertThat(a.keys(Kind.PAGE_DOWN).state.cursor()).isEqualTo(Math.min(page, a.state.visible().size() - 1));
            assertThat(a.keys(Kind.PAGE_DOWN, Kind.PAGE_DOWN, Kind.PAGE_DOWN).state.cursor()).isEqualTo(a.state.visible().size() - 1);
            assertThat(a.keys(Kind.PAGE_DOWN, Kind.PAGE_UP).state.cursor()).isZero();
        }

        @Test
        void enterOpensTheDiffOfTheSelectedRowAndEscComesBack() {
            After diff = at("redis").keys(Kind.ENTER);
            assertThat(diff.state.view()).isEqualTo(View.DIFF);
            assertThat(diff.selected().name()).isEqualTo("redis");
            assertThat(diff.effects).isEmpty();
            After back = diff.keys(Kind.ESCAPE);
            assertThat(back.state.view()).isEqualTo(View.LIST);
            assertThat(back.selected().name()).as("the selection survives the round trip").isEqualTo("redis");
        }

        @Test
        void theDiffScrollsWithinItsLines() {
            After diff = new After(DemoDecisions.state(80, 12), List.of()).keys("G", Kind.ENTER);
            After bottom = diff.keys("G");
            assertThat(bottom.state.scroll()).as("G goes to the last page").isPositive();
            assertThat(bottom.keys("j").state.scroll()).as("no scrolling past the end").isEqualTo(bottom.state.scroll());
            assertThat(bottom.keys("k").state.scroll()).isEqualTo(bottom.state.scroll() - 1);
            assertThat(bottom.keys("g").state.scroll()).isZero();
        }

        @Test
        void helpOpensFromAnyViewAndEscReturnsToIt() {
            After help = at("postgres").keys(Kind.ENTER, "?");
            assertThat(help.state.view()).isEqualTo(View.HELP);
            assertThat(help.keys(Kind.ESCAPE).state.view()).isEqualTo(View.DIFF);
            assertThat(start().keys("?", "?").state.view()).as("? toggles").isEqualTo(View.LIST);
        }

        @Test
        void aResizeChangesThePageSize() {
            After a = start().then(new UiEvent.Resized(120, 40));
            assertThat(a.state.columns()).isEqualTo(120);
            assertThat(a.state.rows()).isEqualTo(40);
        }
    }

    @Nested
    class FilterAndSort {
        @Test
        void slashFiltersAsYouTypeEnterKeepsItEscClearsIt() {
            After typing = start().keys("/", "analytics");
            assertThat(typing.state.filtering()).isTrue();
            assertThat(typing.state.visible()).extracting(Decision::namespace).containsOnly("analytics").hasSize(2);
            After kept = typing.keys(Kind.ENTER);
            assertThat(kept.state.filtering()).isFalse();
            assertThat(kept.state.filter()).isEqualTo("analytics");
            assertThat(kept.keys("j").state.cursor()).as("keys move again once the filter is kept").isEqualTo(1);
            assertThat(kept.keys(Kind.ESCAPE).state.visible()).hasSize(start().state.visible().size());
        }

        @Test
        void keysTypedIntoTheFilterAreNotCommands() {
            After a = start().keys("/", "q");
            assertThat(a.effects).as("q is a letter of the filter, not quit").isEmpty();
            assertThat(a.state.filter()).isEqualTo("q");
        }

        @Test
        void theFilterMatchesVerdictsAndReasons() {
            assertThat(start().keys("/", "refused").state.visible()).extracting(Decision::verdict).containsOnly(Verdict.REFUSED);
            assertThat(start().keys("/", "shrink").state.visible()).extracting(Decision::name).containsExactly("redis");
        }

        @Test
        void backspaceEditsTheFilter() {
            After a = start().keys("/", "redisx", Kind.BACKSPACE);
            assertThat(a.state.filter()).isEqualTo("redis");
            assertThat(a.state.visible()).extracting(Decision::name).containsExactly("redis");
        }

        @Test
        void aFilterMatchingNothingLeavesAnEmptyListAndNoSelection() {
            After a = start().keys("/", "nothing-like-this");
            assertThat(a.state.visible()).isEmpty();
            assertThat(a.state.selected()).isNull();
            assertThat(a.keys(Kind.ENTER, Kind.ENTER).state.view()).as("Enter on no row opens nothing").isEqualTo(View.LIST);
        }

        @Test
        void sCyclesTheOrderAndKeepsTheSelectedStatefulSet() {
            After byName = at("postgres");
            After byVerdict = byName.keys("s");
            assertThat(byVerdict.state.sort()).isEqualTo(SortOrder.VERDICT);
            assertThat(byVerdict.state.visible().get(0).verdict()).as("refused first").isEqualTo(Verdict.REFUSED);
            assertThat(byVerdict.selected().name()).isEqualTo("postgres");
            After byClaims = byVerdict.keys("s");
            assertThat(byClaims.state.sort()).isEqualTo(SortOrder.CLAIMS);
            assertThat(byClaims.state.visible().get(0).claimsToGrow().size())
                    .isEqualTo(byClaims.state.visible().stream().mapToInt(d -> d.claimsToGrow().size()).max().orElseThrow());
            assertThat(byClaims.keys("s").state.sort()).isEqualTo(SortOrder.USED);
            assertThat(byClaims.keys("s", "s").state.sort()).isEqualTo(SortOrder.NAME);
        }
    }

    @Nested
    class Loading {
        @Test
        void rRefreshesOnceUntilTheAnswerComes() {
            After r = start().keys("r");
            assertThat(r.effects).containsExactly(new Effect.LoadDecisions());
            assertThat(r.state.loading()).isTrue();
            assertThat(r.keys("r").effects).as("no second load while one runs").isEmpty();
            After answered = r.then(new UiEvent.DecisionsLoaded(DemoDecisions.loaded()));
            assertThat(answered.state.loading()).isFalse();
            assertThat(answered.keys("r").effects).containsExactly(new Effect.LoadDecisions());
        }

        @Test
        void aRefreshKeepsTheSelectionOnTheSameStatefulSet() {
            After a = at("redis").then(new UiEvent.DecisionsLoaded(DemoDecisions.loaded()));
            assertThat(a.selected().name()).isEqualTo("redis");
        }

        @Test
        void aFailedRefreshIsAFlashWithTheServersMessage() {
            After a = start().keys("r").then(new UiEvent.LoadFailed("the server has asked for the client to provide credentials"));
            assertThat(a.state.flash().level()).isEqualTo(Flash.Level.ERROR);
            assertThat(a.state.flash().text()).contains("provide credentials");
            assertThat(a.state.dialog()).as("the list is still there: no dialog").isNull();
            assertThat(a.state.loading()).isFalse();
        }

        @Test
        void aFailedFirstLoadIsADialogThatROrQAnswers() {
            After a = new After(UiState.initial(80, 24), List.of()).then(new UiEvent.LoadFailed("connection refused"));
            assertThat(a.state.dialog()).isInstanceOf(Dialog.Error.class);
            assertThat(a.state.dialog().message()).contains("connection refused");
            assertThat(a.keys("r").effects).containsExactly(new Effect.LoadDecisions());
            assertThat(a.keys("q").effects).containsExactly(new Effect.Quit());
        }
    }

    @Nested
    class Quitting {
        @Test
        void qCtrlCAndTheEndOfInputQuitFromTheList() {
            assertThat(start().keys("q").effects).containsExactly(new Effect.Quit());
            assertThat(start().keys(Kind.CTRL_C).effects).containsExactly(new Effect.Quit());
            assertThat(start().keys(Kind.EOF).effects).containsExactly(new Effect.Quit());
        }

        @Test
        void quittingDuringAWriteAsksFirstAndNStays() {
            After growing = at("postgres").keys("a").then(finished("postgres", Phase.CHECK)).keys("y");
            After asked = growing.keys("q");
            assertThat(asked.effects).as("no quit without confirmation").isEmpty();
            assertThat(asked.state.dialog()).isInstanceOf(Dialog.ConfirmQuit.class);
            assertThat(asked.state.dialog().message()).contains("grow");
            After stayed = asked.keys("n");
            assertThat(stayed.effects).isEmpty();
            assertThat(stayed.state.dialog()).isNull();
            assertThat(asked.keys("y").effects).containsExactly(new Effect.Quit());
            assertThat(growing.keys(Kind.CTRL_C, Kind.CTRL_C).effects).as("Ctrl-C twice quits").containsExactly(new Effect.Quit());
        }

        @Test
        void quittingWhileTheStatefulSetIsAbsentSaysHowToResume() {
            After absent = postgresAtDeleteGate().keys("postgres", Kind.ENTER).then(finished("postgres", Phase.ORPHAN_DELETE));
            assertThat(absent.state.wizard().statefulSetAbsent()).isTrue();
            After asked = absent.keys("q");
            assertThat(asked.effects).isEmpty();
            assertThat(asked.state.dialog().message()).contains("kubectl stsresize resume shop/postgres");
        }

        @Test
        void quittingAtAGateBeforeAnyWriteQuitsAtOnce() {
            After atGate = at("postgres").keys("a").then(finished("postgres", Phase.CHECK));
            assertThat(atGate.keys("q").effects).containsExactly(new Effect.Quit());
        }
    }

    @Nested
    class TheWizard {
        @Test
        void aOnARefusedRowSaysWhyAndOpensNothing() {
            After a = at("redis").keys("a");
            assertThat(a.state.view()).isEqualTo(View.LIST);
            assertThat(a.effects).isEmpty();
            assertThat(a.state.flash().text()).contains("REFUSED: shrink").contains("nothing to apply");
        }

        @Test
        void opensOnAGrowRowWithTheReadOnlyCheckRunning() {
            After a = at("postgres").keys("a");
            assertThat(a.state.view()).isEqualTo(View.WIZARD);
            assertThat(a.state.wizard().status(Phase.CHECK)).isEqualTo(StepStatus.RUNNING);
            assertThat(a.effects).singleElement().isInstanceOfSatisfying(Effect.RunStep.class, r -> {
                assertThat(r.step()).isEqualTo(Phase.CHECK);
                assertThat(r.decision().name()).isEqualTo("postgres");
                assertThat(r.uid()).as("the live UID for the delete's precondition").isNotEmpty();
            });
        }

        @Test
        void enterInTheDiffOpensTheWizardToo() {
            assertThat(at("postgres").keys(Kind.ENTER, Kind.ENTER).state.view()).isEqualTo(View.WIZARD);
        }

        @Test
        void theGrowGateWaitsForY() {
            After gate = at("postgres").keys("a").then(finished("postgres", Phase.CHECK));
            assertThat(gate.effects).as("nothing runs before y").isEmpty();
            assertThat(gate.state.wizard().gate()).isEqualTo(Gate.CONFIRM);
            assertThat(gate.keys("x", Kind.ENTER).effects).as("other keys do not pass the gate").isEmpty();
            After yes = gate.keys("y");
            assertThat(yes.effects).last().isEqualTo(new Effect.RunStep(Phase.GROW, DemoDecisions.named("postgres"),
                    gate.state.wizard().uid()));
            assertThat(yes.state.wizard().status(Phase.GROW)).isEqualTo(StepStatus.RUNNING);
        }

        @Test
        void escAtTheGrowGateLeavesWithNothingWritten() {
            After left = at("postgres").keys("a").then(finished("postgres", Phase.CHECK)).keys(Kind.ESCAPE);
            assertThat(left.state.wizard()).isNull();
            assertThat(left.state.view()).isEqualTo(View.LIST);
            assertThat(left.effects).as("the runner forgets what it checked; nothing was written, nothing to refresh")
                    .containsExactly(new Effect.CancelSteps(DemoDecisions.named("postgres")));
            assertThat(left.state.flash().text()).contains("nothing was written");
        }

        @Test
        void aStepWithoutAGateStartsWhenThePreviousOneEnds() {
            After grown = at("postgres").keys("a").then(finished("postgres", Phase.CHECK)).keys("y")
                    .then(finished("postgres", Phase.GROW));
            assertThat(grown.effects).last().isInstanceOfSatisfying(Effect.RunStep.class, r -> assertThat(r.step()).isEqualTo(Phase.WAIT));
            assertThat(grown.state.wizard().status(Phase.WAIT)).isEqualTo(StepStatus.RUNNING);
        }

        @Test
        void theDeleteGateWaitsForTheNameTyped() {
            After gate = postgresAtDeleteGate();
            assertThat(gate.state.wizard().gate()).isEqualTo(Gate.TYPE_NAME);
            assertThat(gate.state.wizard().status(Phase.ORPHAN_DELETE)).isEqualTo(StepStatus.PENDING);
            After typed = gate.keys("postgres", Kind.ENTER);
            assertThat(typed.effects).containsExactly(new Effect.RunStep(Phase.ORPHAN_DELETE, DemoDecisions.named("postgres"),
                    gate.state.wizard().uid()));
        }

        @Test
        void aWrongNameDoesNotPassTheDeleteGate() {
            After wrong = postgresAtDeleteGate().keys("postgre", Kind.ENTER);
            assertThat(wrong.effects).as("no delete").isEmpty();
            assertThat(wrong.state.wizard().gate()).isEqualTo(Gate.TYPE_NAME);
            assertThat(wrong.state.wizard().typed()).as("cleared to type again").isEmpty();
            assertThat(wrong.state.wizard().status(Phase.ORPHAN_DELETE)).isEqualTo(StepStatus.PENDING);
            assertThat(wrong.state.flash().text()).contains("nothing was deleted");
            assertThat(postgresAtDeleteGate().keys("Postgres", Kind.ENTER).effects).as("case matters").isEmpty();
            assertThat(postgresAtDeleteGate().keys("postgres ", Kind.ENTER).effects).as("so do spaces").isEmpty();
            assertThat(postgresAtDeleteGate().keys(Kind.ENTER).effects).as("nothing typed").isEmpty();
        }

        @Test
        void lettersAtTheNameGateAreTypedNotCommands() {
            After a = postgresAtDeleteGate().keys("q?a");
            assertThat(a.effects).isEmpty();
            assertThat(a.state.view()).isEqualTo(View.WIZARD);
            assertThat(a.state.wizard().typed()).isEqualTo("q?a");
            assertThat(a.keys(Kind.BACKSPACE).state.wizard().typed()).isEqualTo("q?");
        }

        @Test
        void escAtTheDeleteGateLeavesTheStatefulSetUntouchedAndRefreshes() {
            After left = postgresAtDeleteGate().keys(Kind.ESCAPE);
            assertThat(left.state.wizard()).isNull();
            assertThat(left.effects).as("no step runs at the gate, yet the runner holds the Lease there: it is told to refuse and release")
                    .containsExactly(new Effect.CancelSteps(DemoDecisions.named("postgres")), new Effect.LoadDecisions());
            assertThat(left.state.flash().text()).contains("claims are grown").contains("untouched");
            assertThat(left.then(new UiEvent.DecisionsLoaded(DemoDecisions.loaded())).state.flash().text())
                    .as("the refresh it asked for does not hide why").contains("claims are grown");
        }

        @Test
        void escIsRefusedWhileTheStatefulSetIsAbsent() {
            After reapplying = postgresAtDeleteGate().keys("postgres", Kind.ENTER).then(finished("postgres", Phase.ORPHAN_DELETE));
            assertThat(reapplying.state.wizard().status(Phase.REAPPLY)).isEqualTo(StepStatus.RUNNING);
            After esc = reapplying.keys(Kind.ESCAPE);
            assertThat(esc.state.view()).isEqualTo(View.WIZARD);
            assertThat(esc.effects).isEmpty();
            assertThat(esc.state.flash().level()).isEqualTo(Flash.Level.WARN);
        }

        @Test
        void theWholeRunEndsVerifiedAndEscRefreshesTheList() {
            After done = postgresAtDeleteGate().keys("postgres", Kind.ENTER)
                    .then(finished("postgres", Phase.ORPHAN_DELETE), finished("postgres", Phase.REAPPLY),
                            finished("postgres", Phase.VERIFY));
            assertThat(done.state.wizard().finished()).isTrue();
            assertThat(done.state.wizard().writeInFlight()).isFalse();
            assertThat(done.state.flash().text()).contains("converged and verified");
            assertThat(done.keys("q").effects).as("nothing in flight any more").containsExactly(new Effect.Quit());
            After back = done.keys(Kind.ESCAPE);
            assertThat(back.state.view()).isEqualTo(View.LIST);
            assertThat(back.effects).containsExactly(new Effect.CancelSteps(DemoDecisions.named("postgres")), new Effect.LoadDecisions());
        }

        @Test
        void claimsThatOnlyLagAreGrownAndVerifiedWithoutADeleteGate() {
            After a = at("minio").keys("a");
            assertThat(a.state.wizard().steps()).containsExactly(Phase.CHECK, Phase.GROW, Phase.WAIT, Phase.VERIFY);
            After done = a.then(finished("minio", Phase.CHECK)).keys("y")
                    .then(finished("minio", Phase.GROW), finished("minio", Phase.WAIT), finished("minio", Phase.VERIFY));
            assertThat(done.state.wizard().finished()).isTrue();
            assertThat(a.then(finished("minio", Phase.CHECK)).keys("y").then(finished("minio", Phase.GROW),
                    finished("minio", Phase.WAIT)).effects).extracting(e -> ((Effect.RunStep) e).step())
                    .as("wait and verify follow the grow by themselves").containsExactly(Phase.WAIT, Phase.VERIFY);
        }

        @Test
        void aFailedStepStopsTheWizardWithTheMessage() {
            After failed = at("postgres").keys("a").then(finished("postgres", Phase.CHECK)).keys("y")
                    .then(failed("postgres", Phase.GROW, "persistentvolumeclaims \"data-postgres-1\" is forbidden: exceeded quota"));
            assertThat(failed.state.wizard().status(Phase.GROW)).isEqualTo(StepStatus.FAILED);
            assertThat(failed.state.wizard().status(Phase.WAIT)).isEqualTo(StepStatus.PENDING);
            assertThat(failed.state.flash().text()).contains("exceeded quota");
            assertThat(failed.state.dialog()).as("the StatefulSet is still there: a flash is enough").isNull();
        }

        @Test
        void aReapplyFailureWhileAbsentIsADialogWithTheResumeCommand() {
            After failed = postgresAtDeleteGate().keys("postgres", Kind.ENTER).then(finished("postgres", Phase.ORPHAN_DELETE),
                    failed("postgres", Phase.REAPPLY, "Internal error occurred: etcdserver: request timed out"));
            assertThat(failed.state.dialog()).isInstanceOf(Dialog.Error.class);
            assertThat(failed.state.dialog().message()).contains("etcdserver: request timed out").contains("resume shop/postgres");
        }

        @Test
        void progressIsLoggedAndLateAnswersForALeftWizardAreDropped() {
            After running = at("postgres").keys("a").then(
                    new UiEvent.StepProgress("shop/postgres", Phase.CHECK, "read 3 claims", "", false));
            assertThat(running.state.wizard().log()).extracting(dev.stsresize.tui.Wizard.LogLine::message).containsExactly("read 3 claims");
            After left = running.keys(Kind.ESCAPE);
            assertThat(left.effects).as("a running read is cancelled").contains(new Effect.CancelSteps(DemoDecisions.named("postgres")));
            After late = left.then(finished("postgres", Phase.CHECK),
                    new UiEvent.StepProgress("shop/postgres", Phase.CHECK, "late", "", false));
            assertThat(late.state).isEqualTo(left.state);
            assertThat(late.effects).isEmpty();
        }

        @Test
        void anAnswerForAnotherStatefulSetIsIgnored() {
            After running = at("postgres").keys("a");
            After other = running.then(finished("clickhouse", Phase.CHECK));
            assertThat(other.state.wizard().status(Phase.CHECK)).isEqualTo(StepStatus.RUNNING);
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
            assertThat(read.state.wizard().claims()).extracting(ClaimProgress::state).containsExactly(ClaimProgress.State.GROWN);
            assertThat(read.effects).isEmpty();
            After other = running.then(new UiEvent.ClaimsRead("analytics/clickhouse", List.of(claim("x", ClaimProgress.State.GROWN, "1Gi"))));
            assertThat(other.state).isEqualTo(running.state);
            After gone = running.keys(Kind.ESCAPE);
            assertThat(gone.then(new UiEvent.ClaimsRead("shop/postgres", List.of())).state).as("no wizard, dropped").isEqualTo(gone.state);
        }

        @Test
        void aWaitTickShowsWhatTheStepWaitsForHowLongAndEachClaimsLatestWordUntilTheStepEnds() {
            After waiting = at("postgres").keys("a").then(finished("postgres", Phase.CHECK)).keys("y").then(finished("postgres", Phase.GROW));
            String failed = "VolumeResizeFailed ×3: resize volume \"pvc-1\" failed: rpc error: code = Unavailable";
            WaitStatus status = new WaitStatus("the capacity of claim data-postgres-0 to reach 20Gi", java.time.Duration.ofSeconds(80),
                    java.time.Duration.ofSeconds(520));
            After ticked = waiting.then(new UiEvent.ClaimsRead("shop/postgres", List.of(new ClaimProgress("data-postgres-0", "20Gi", "10Gi",
                    "20Gi", List.of("Resizing"), ClaimProgress.State.RESIZING, "", failed))), new UiEvent.WaitTicked("shop/postgres", status));
            assertThat(ticked.state.wizard().waiting()).isEqualTo(status);
            assertThat(ticked.effects).isEmpty();
            String screen = VirtualScreen.draw(ticked.state, new dev.stsresize.tui.terminal.Theme(false), Glyphs.UNICODE).text();
            assertThat(screen).contains("waiting 1m20s (8m40s left) for the capacity of claim data-postgres-0 to");
            assertThat(screen).contains("VolumeResizeFailed ×3: resize volume \"pvc-1\" failed");
            assertThat(waiting.then(new UiEvent.WaitTicked("analytics/clickhouse", status)).state).as("another wizard's").isEqualTo(waiting.state);
            After ended = ticked.then(finished("postgres", Phase.WAIT));
            assertThat(ended.state.wizard().waiting()).as("the step ended: its wait with it").isNull();
            assertThat(VirtualScreen.draw(ended.state, new dev.stsresize.tui.terminal.Theme(false), Glyphs.UNICODE).text())
                    .doesNotContain("waiting 1m20s");
        }

        @Test
        void cWhileWaitingForCapacityGoesOnOnceAndOnlyThen() {
            After waiting = at("postgres").keys("a").then(finished("postgres", Phase.CHECK)).keys("y").then(finished("postgres", Phase.GROW));
            assertThat(waiting.state.wizard().status(Phase.WAIT)).isEqualTo(StepStatus.RUNNING);
            After c = waiting.keys("c");
            assertThat(c.effects).containsExactly(new Effect.GoOn(DemoDecisions.named("postgres")));
            assertThat(c.state.wizard().goingOn()).isTrue();
            assertThat(c.state.flash().text()).contains("going on: the resizer keeps working");
            assertThat(c.keys("c").effects).as("once").isEmpty();
            After beforeWait = at("postgres").keys("a").then(finished("postgres", Phase.CHECK)).keys("y");
            assertThat(beforeWait.keys("c").effects).as("not while growing").isEmpty();
        }

        @Test
        void escWhileWaitingForCapacityLeavesAndTheRunnerIsToldToRefuseTheDelete() {
            After waiting = at("postgres").keys("a").then(finished("postgres", Phase.CHECK)).keys("y").then(finished("postgres", Phase.GROW));
            After esc = waiting.keys(Kind.ESCAPE);
            assertThat(esc.state.wizard()).isNull();
            assertThat(esc.effects).contains(new Effect.CancelSteps(DemoDecisions.named("postgres")), new Effect.LoadDecisions());
            assertThat(esc.state.flash().text()).contains("before the delete").contains("StatefulSet is untouched");
        }

        @Test
        void theSummaryIsKeptAndAVerifiedRunWithoutWaitingFileSystemsOffersNoRestart() {
            After done = postgresVerified(summary(true, false));
            assertThat(done.state.wizard().summary().converged()).isTrue();
            assertThat(done.state.wizard().restartOffered()).isFalse();
            assertThat(done.keys("p").effects).isEmpty();
            assertThat(done.state.flash().text()).contains("converged and verified").doesNotContain("restart");
        }

        @Test
        void aFileSystemWaitingForItsPodOffersTheRestartAndPRunsItAsAnAppendedStep() {
            After done = postgresVerified(summary(true, true));
            assertThat(done.state.wizard().restartOffered()).isTrue();
            assertThat(done.state.flash().text()).contains("p offers the pod restarts");
            After p = done.keys("p");
            assertThat(p.effects).containsExactly(new Effect.RunStep(Phase.RESTART, DemoDecisions.named("postgres"), p.state.wizard().uid()));
            assertThat(p.state.wizard().steps()).endsWith(Phase.RESTART);
            assertThat(p.state.wizard().status(Phase.RESTART)).isEqualTo(StepStatus.RUNNING);
            assertThat(p.state.wizard().writeInFlight()).as("evictions are writes: q asks first").isTrue();
            assertThat(p.keys("p").effects).as("offered once").isEmpty();
            After restarted = p.then(finished("postgres", Phase.RESTART));
            assertThat(restarted.state.wizard().finished()).isTrue();
            assertThat(restarted.state.flash().text()).contains("restarted one at a time");
        }

        @Test
        void aRunThatIsNotVerifiedSaysWhatIsNotAndOffersNothing() {
            Summary s = summary(false, true);
            After failed = postgresAtDeleteGate().keys("postgres", Kind.ENTER).then(finished("postgres", Phase.ORPHAN_DELETE),
                    finished("postgres", Phase.REAPPLY), new UiEvent.Summarized("shop/postgres", s),
                    failed("postgres", Phase.VERIFY, String.join("; ", s.problems())));
            assertThat(failed.state.wizard().failed()).isTrue();
            assertThat(failed.state.wizard().restartOffered()).isFalse();
            assertThat(failed.state.flash().text()).contains("verify failed").contains("not adopted");
            assertThat(failed.state.dialog()).as("re-applied: the StatefulSet stands, a flash is enough").isNull();
        }

        @Test
        void theEndOfAStepIsNotLoggedTwice() {
            After a = at("postgres").keys("a").then(new UiEvent.StepProgress("shop/postgres", Phase.CHECK, "same words", "", false),
                    new UiEvent.StepFinished("shop/postgres", Phase.CHECK, true, "same words"));
            assertThat(a.state.wizard().log()).extracting(Wizard.LogLine::message).containsExactly("same words");
        }

        @Test
        void anInterruptedRunFoundAtStartIsOfferedAndYResumesItInAWizard() {
            InterruptedRun run = new InterruptedRun("shop", "postgres", "deleting", "bob@desk 7", "2026-12-03T10:00:00.000000Z", true);
            Loaded base = DemoDecisions.loaded();
            Loaded withRun = new Loaded(base.decisions(), base.uids(), base.context(), base.cluster(), base.scope(), base.manifest(),
                    java.util.Map.of(), List.of(run));
            After start = new After(UiState.initial(80, 24), List.of()).then(new UiEvent.DecisionsLoaded(withRun));
            assertThat(start.state.dialog()).isInstanceOf(Dialog.Resume.class);
            assertThat(start.state.dialog().message()).contains("bob@desk 7").contains("ABSENT").contains("kubectl stsresize resume shop/postgres");
            After y = start.keys("y");
            assertThat(y.state.dialog()).isNull();
            assertThat(y.state.view()).isEqualTo(View.WIZARD);
            assertThat(y.state.wizard().steps()).containsExactly(Phase.RESUME);
            assertThat(y.effects).containsExactly(new Effect.RunStep(Phase.RESUME, DemoDecisions.named("postgres"), y.state.wizard().uid()));
            assertThat(y.keys("q").state.dialog()).as("a resume is a write in flight").isInstanceOf(Dialog.ConfirmQuit.class);
            After n = start.keys("n");
            assertThat(n.effects).isEmpty();
            assertThat(n.state.flash().text()).contains("kubectl stsresize resume shop/postgres");
            After refreshed = new After(DemoDecisions.state(80, 24), List.of()).then(new UiEvent.DecisionsLoaded(withRun));
            assertThat(refreshed.state.dialog()).as("offered at start, not at every refresh").isNull();
        }
    }
}
