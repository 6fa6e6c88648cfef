package dev.stsresize.tui;

import dev.stsresize.converge.Phase;
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
}
