package dev.stsresize.tui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.plan.CopyOptIn;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Refusal;
import dev.stsresize.plan.Verdict;
import dev.stsresize.sim.demo.DemoScenario;
import dev.stsresize.tui.UpdateTest.After;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The list's C, as plain data: on a row refused only for want of expansion that the copy can take, it asks for that row to
 * be decided again with the opt-in and opens its diff on the answer; on any other row it does nothing and is not offered.
 */
class CopyKeyTest {
    /** The copy demo's files/web (local-path, cannot expand) as the list decides it without --copy: refused, a copy possible. */
    private static After copyDemo() {
        return new After(Update.apply(UiState.initial(80, 24), new UiEvent.DecisionsLoaded(DemoDecisions.copyLoaded(CopyOptIn.NONE)))
                .state(), List.of());
    }

    /** The same StatefulSet as {@code plan --copy} decides it: a copy plan. */
    private static Decision webWithTheCopy() {
        return DemoDecisions.copyLoaded(CopyOptIn.withDefaults()).decisions().get(0);
    }

    @Test
    void onARefusalTheCopyCanTakeItAsksForTheRowDecidedAgainWithTheOptIn() {
        After a = UpdateTest.at("mysql");
        assertThat(a.selected()).as("the demo's mysql is refused only for want of expansion").isInstanceOfSatisfying(Refusal.class,
                r -> assertThat(r.copyPossible()).isTrue());
        assertThat(KeyHints.of(a.state())).contains("<C> copy to bigger volumes");

        After pressed = a.keys("C");
        assertThat(pressed.effects()).containsExactly(new Effect.DecideCopy(a.selected()));
        assertThat(pressed.state().flash().text()).contains("legacy/mysql").contains(CopyOptIn.DEFAULT_IMAGE).contains("own class");
        assertThat(pressed.state().selected().verdict()).as("nothing decided before the answer").isEqualTo(Verdict.REFUSED);
    }

    @Test
    void theAnswerReplacesTheRowAndOpensItsDiffFromWhichTheCopysWizardStarts() {
        After web = copyDemo();
        assertThat(web.selected()).isInstanceOfSatisfying(Refusal.class, r -> assertThat(r.copyPossible()).isTrue());
        Decision copy = webWithTheCopy();
        assertThat(copy.verdict()).isEqualTo(Verdict.COPY);
        After pressed = web.keys("C");
        assertThat(pressed.effects()).containsExactly(new Effect.DecideCopy(web.selected()));
        After decided = pressed.then(new UiEvent.CopyDecided(copy));
        assertThat(decided.state().selected()).isEqualTo(copy);
        assertThat(decided.state().view()).isEqualTo(View.DIFF);
        assertThat(decided.state().flash().text()).contains("files/web is COPY now");
        assertThat(KeyHints.of(decided.state())).as("a copy plan is not offered the copy again").doesNotContain("<C>");

        After wizard = decided.keys(Key.Kind.ENTER);
        assertThat(wizard.state().wizard().steps()).isEqualTo(dev.stsresize.converge.Phase.checklist(copy));
        assertThat(wizard.effects()).containsExactly(new Effect.RunStep(dev.stsresize.converge.Phase.CHECK, copy,
                decided.state().loaded().uid(copy)));
    }

    @Test
    void onARefusalTheCopyCannotTakeItDoesNothingAndIsNotOffered() {
        After a = UpdateTest.at("redis"); // a shrink: no copy answers it
        assertThat(KeyHints.of(a.state())).doesNotContain("<C>");
        After pressed = a.keys("C");
        assertThat(pressed.effects()).isEmpty();
        assertThat(pressed.state()).isEqualTo(a.state());
    }

    @Test
    void onAGrowRowItDoesNothingAndIsNotOffered() {
        After a = UpdateTest.at("postgres");
        assertThat(a.selected().verdict()).isEqualTo(Verdict.GROW);
        assertThat(KeyHints.of(a.state())).doesNotContain("<C>");
        After pressed = a.keys("C");
        assertThat(pressed.effects()).isEmpty();
        assertThat(pressed.state()).isEqualTo(a.state());
        After inTheDiff = a.keys(Key.Kind.ENTER);
        assertThat(KeyHints.of(inTheDiff.state())).doesNotContain("<C>");
        assertThat(inTheDiff.keys("C").effects()).isEmpty();
    }

    @Test
    void aRowTheCopyCannotTakeOnceAskedSaysWhyAndStaysRefused() {
        Decision mysql = DemoDecisions.named("mysql");
        Refusal blocked = new Refusal(mysql.namespace(), mysql.name(), List.of(new dev.stsresize.plan.Finding(
                dev.stsresize.plan.Reason.COPY_NO_VOLUME, "no Available PersistentVolume for data-mysql-0")), mysql.templates(),
                mysql.claims(), List.of());
        After answered = UpdateTest.at("mysql").keys("C").then(new UiEvent.CopyDecided(blocked));
        assertThat(answered.state().selected()).isEqualTo(blocked);
        assertThat(answered.state().flash().text()).contains("cannot be copied").contains("no Available PersistentVolume");
    }

    @Test
    void notWhileTheListIsStillBeingProved() {
        After a = UpdateTest.at("mysql");
        After loading = new After(a.state().withLoading(true), List.of());
        After pressed = loading.keys("C");
        assertThat(pressed.effects()).isEmpty();
        assertThat(pressed.state().flash().text()).contains("not yet");
    }
}
