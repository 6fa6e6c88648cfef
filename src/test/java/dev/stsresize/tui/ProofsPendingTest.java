package dev.stsresize.tui;

import dev.stsresize.converge.Phase;
import dev.stsresize.converge.Gate;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Finding;
import dev.stsresize.plan.Reason;
import dev.stsresize.plan.Refusal;
import dev.stsresize.tui.Key.Kind;
import dev.stsresize.tui.UpdateTest.After;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The first list comes from the LISTs alone, its rows with work waiting for the server's proofs
 * (permissions, dry runs): keys work at once, and no write starts from a row whose proofs are not in.
 */
class ProofsPendingTest {
    /** The demo as the first load answers it: decided from the objects, every row with work unproved. */
    static Loaded listed() {
        Loaded all = DemoDecisions.loaded();
        Set<String> unproved = new HashSet<>();
        all.decisions().stream().filter(d -> d.verdict().hasWork()).forEach(d -> unproved.add(Loaded.key(d)));
        return all.withUnproved(unproved);
    }

    static After firstScreen() {
        return new After(UiState.initial(100, 30), List.of()).then(new UiEvent.DecisionsLoaded(listed()));
    }

    static int indexOf(UiState s, String name) {
        for (int i = 0; i < s.visible().size(); i++) {
            if (s.visible().get(i).name().equals(name)) {
                return i;
            }
        }
        throw new AssertionError(name);
    }

    static After postgresCheckedBeforeTheListsProofs() {
        After first = firstScreen();
        After at = new After(first.state().withCursor(indexOf(first.state(), "postgres")), List.of());
        return at.keys("a").then(UpdateTest.finished("postgres", Phase.CHECK));
    }

    private static boolean startsAWrite(List<Effect> effects) {
        return effects.stream().anyMatch(e -> e instanceof Effect.RunStep r && r.step().writes());
    }

    @Test
    void theFirstScreenIsDrawnFromTheListsAndAsksForTheProofsAndTheUsage() {
        After first = firstScreen();
        assertThat(first.state().visible()).hasSize(9);
        assertThat(first.state().loading()).as("loading until the proofs are in: no second load starts behind them").isTrue();
        assertThat(first.effects()).containsExactly(new Effect.ProveDecisions(), new Effect.ReadUsage(java.time.Duration.ZERO));
        String screen = VirtualScreen.draw(first.state(), new dev.stsresize.tui.terminal.Theme(false), Glyphs.UNICODE).text();
        assertThat(screen.lines().skip(1).findFirst().orElseThrow()).contains("REFUSED  checking…");
        assertThat(screen.lines().filter(l -> l.contains("shop/postgres")).findFirst().orElseThrow()).contains("GROW checking…");
        assertThat(screen.lines().filter(l -> l.contains("legacy/etcd")).findFirst().orElseThrow()).doesNotContain("checking");
    }

    @Test
    void keysWorkBeforeTheProofsArrive() {
        After first = firstScreen();
        After moved = first.keys("j", "j", "k");
        assertThat(moved.state().cursor()).isEqualTo(1);
        assertThat(moved.effects()).isEmpty();
        After filtered = first.keys("/", "postgres", Kind.ENTER);
        assertThat(filtered.state().visible()).extracting(Decision::name).containsExactly("postgres");
        After diff = filtered.keys(Kind.ENTER);
        assertThat(diff.state().view()).isEqualTo(View.DIFF);
        assertThat(VirtualScreen.draw(diff.state(), new dev.stsresize.tui.terminal.Theme(false), Glyphs.UNICODE).text())
                .contains("not in yet");
        After sorted = first.keys("s");
        assertThat(sorted.state().sort()).isNotEqualTo(first.state().sort());
        assertThat(first.keys("?").state().view()).isEqualTo(View.HELP);
        assertThat(first.keys("r").effects()).as("a refresh waits for the proofs of the load shown").isEmpty();
    }

    @Test
    void theWizardOpensBeforeTheProofsAndItsCheckIsTheOnlyEffect() {
        After first = firstScreen();
        After wizard = new After(first.state().withCursor(indexOf(first.state(), "postgres")), List.of()).keys("a");
        assertThat(wizard.state().view()).isEqualTo(View.WIZARD);
        assertThat(wizard.effects()).hasSize(1).allSatisfy(e -> assertThat(e).isInstanceOfSatisfying(Effect.RunStep.class,
                r -> assertThat(r.step()).isEqualTo(Phase.CHECK)));
        After y = wizard.keys("y");
        assertThat(startsAWrite(y.effects())).isFalse();
        assertThat(y.state().flash().text()).contains("not yet").contains("permissions");
        assertThat(y.then(UpdateTest.finished("postgres", Phase.CHECK)).state().flash()).as("the gate's prompt replaces it").isNull();
    }

    /** The guard: the wizard's check has passed, the list's own proofs of the row are not in yet. */
    @Test
    void theConfirmKeyStartsNoWriteBeforeTheProofsArrive() {
        After checked = postgresCheckedBeforeTheListsProofs();
        assertThat(checked.state().wizard().gate()).isEqualTo(Gate.CONFIRM);
        assertThat(VirtualScreen.draw(checked.state(), new dev.stsresize.tui.terminal.Theme(false), Glyphs.UNICODE).text())
                .contains("waiting for the list's permission checks and dry runs");
        After y = checked.keys("y");
        assertThat(startsAWrite(y.effects())).as("y before the proofs: " + y.effects()).isFalse();
        assertThat(y.state().wizard().status(Phase.GROW)).isEqualTo(StepStatus.PENDING);
        assertThat(y.state().flash().text()).contains("waiting for the server's permission checks and dry runs");
        assertThat(y.state().flash().level()).as("said once: the proofs end it").isEqualTo(Flash.Level.INFO);

        After proved = y.then(new UiEvent.DecisionsProved(DemoDecisions.loaded())).keys("y");
        assertThat(proved.effects()).containsExactly(new Effect.RunStep(Phase.GROW, DemoDecisions.named("postgres"),
                proved.state().wizard().uid()));
    }

    @Test
    void aRefusalTheProofsFoundStopsTheConfirmAndShowsInTheList() {
        Loaded all = DemoDecisions.loaded();
        List<Decision> refused = new ArrayList<>();
        for (Decision d : all.decisions()) {
            refused.add(d.name().equals("postgres") ? new Refusal(d.namespace(), d.name(),
                    List.of(new Finding(Reason.FORBIDDEN, "you cannot patch persistentvolumeclaims in namespace shop")), d.templates(),
                    d.claims(), d.warnings()) : d);
        }
        Loaded proofs = new Loaded(refused, all.uids(), all.context(), all.cluster(), all.scope(), all.manifest(), all.conditions(),
                all.interrupted(), all.fieldManagers());
        After after = postgresCheckedBeforeTheListsProofs().then(new UiEvent.DecisionsProved(proofs));
        String screen = VirtualScreen.draw(after.state().withView(View.LIST, View.LIST), new dev.stsresize.tui.terminal.Theme(false),
                Glyphs.UNICODE).text();
        assertThat(screen.lines().filter(l -> l.contains("shop/postgres")).findFirst().orElseThrow()).contains("BLOCKED")
                .doesNotContain("checking");
        After y = after.keys("y");
        assertThat(startsAWrite(y.effects())).isFalse();
        assertThat(y.state().flash().text()).contains("nothing was written");
    }

    @Test
    void failedProofsLeaveTheRowsUncheckedAndTheConfirmClosed() {
        After failed = postgresCheckedBeforeTheListsProofs().then(new UiEvent.LoadFailed("connection reset"));
        assertThat(failed.state().flash().text()).contains("permission checks and dry runs failed").contains("connection reset");
        assertThat(VirtualScreen.draw(failed.state().withView(View.LIST, View.LIST), new dev.stsresize.tui.terminal.Theme(false),
                Glyphs.UNICODE).text()).contains("GROW unchecked");
        After y = failed.keys("y");
        assertThat(startsAWrite(y.effects())).isFalse();
        assertThat(y.state().flash().text()).contains("r in the list reads and proves again");
    }

    @Test
    void anInterruptedRunIsOfferedOnlyOnceTheProofsAreIn() {
        InterruptedRun run = new InterruptedRun("shop", "postgres", "Grown", "bob@desk 7", "2026-12-06T09:00:00Z", false);
        Loaded all = DemoDecisions.loaded();
        Loaded withRun = new Loaded(all.decisions(), all.uids(), all.context(), all.cluster(), all.scope(), all.manifest(),
                all.conditions(), List.of(run), all.fieldManagers());
        After first = new After(UiState.initial(100, 30), List.of()).then(new UiEvent.DecisionsLoaded(withRun.withUnproved(listed().unproved())));
        assertThat(first.state().dialog()).isNull();
        assertThat(startsAWrite(first.keys("y").effects())).isFalse();
        After proved = first.then(new UiEvent.DecisionsProved(withRun));
        assertThat(proved.state().dialog()).isInstanceOf(Dialog.Resume.class);
    }

    @Test
    void aRefreshSaysRefreshedOnceItsProofsAreIn() {
        After refreshing = firstScreen().then(new UiEvent.DecisionsProved(DemoDecisions.loaded())).keys("r");
        assertThat(refreshing.effects()).containsExactly(new Effect.LoadDecisions());
        After listedAgain = refreshing.then(new UiEvent.DecisionsLoaded(listed()));
        assertThat(listedAgain.effects()).containsExactly(new Effect.ProveDecisions());
        assertThat(listedAgain.state().flash().text()).isEqualTo("refreshing");
        assertThat(listedAgain.then(new UiEvent.DecisionsProved(DemoDecisions.loaded())).state().flash().text()).startsWith("refreshed: 9");
    }
}
