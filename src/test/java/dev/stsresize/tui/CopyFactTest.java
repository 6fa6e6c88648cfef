package dev.stsresize.tui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.plan.Finding;
import dev.stsresize.plan.Reason;
import dev.stsresize.plan.Refusal;
import dev.stsresize.tui.UpdateTest.After;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The list's C follows the decision's fact ({@link Refusal#copyPossible}), never the words that say it: a refusal whose
 * detail carries the copy's sentence but whose fact says no is not offered the copy, and one whose fact says yes is, in
 * whatever words. Reading the sentence back from the detail (as the key once did) turns both red.
 */
class CopyFactTest {
    /** The sentence the decision writes where a copy is possible (plan.CopyRoute). */
    private static final String SENTENCE = "a copy to bigger volumes is possible: --copy (one pod at a time, each down while its data is copied)";

    private static Refusal refusal(String message, boolean copyPossible) {
        return new Refusal("legacy", "mysql", List.of(new Finding(Reason.NOT_EXPANDABLE, message)), List.of(), List.of(), List.of(),
                copyPossible);
    }

    private static After listOf(Refusal r) {
        Loaded loaded = new Loaded(List.of(r), Map.of("legacy/mysql", "u-1"), "(offline)", "test", "legacy", "manifest.yaml");
        return new After(Update.apply(UiState.initial(100, 24), new UiEvent.DecisionsLoaded(loaded)).state(), List.of());
    }

    @Test
    void theSentenceWithoutTheFactOffersNoCopy() {
        Refusal saysItButIsNot = refusal("claim \"data-mysql-0\" cannot grow: its class does not allow expansion; " + SENTENCE, false);
        assertThat(saysItButIsNot.detail()).endsWith(SENTENCE);
        After a = listOf(saysItButIsNot);
        assertThat(Update.copyOffered(saysItButIsNot)).isFalse();
        assertThat(KeyHints.of(a.state())).doesNotContain("<C>");
        assertThat(a.keys("C").effects()).as("C does nothing on a row whose fact says no copy").isEmpty();
    }

    @Test
    void theFactWithoutTheSentenceOffersTheCopy() {
        Refusal isButDoesNotSayIt = refusal("claim \"data-mysql-0\" cannot grow: its class does not allow expansion", true);
        assertThat(isButDoesNotSayIt.detail()).doesNotContain("--copy");
        After a = listOf(isButDoesNotSayIt);
        assertThat(Update.copyOffered(isButDoesNotSayIt)).isTrue();
        assertThat(KeyHints.of(a.state())).contains("<C> copy to bigger volumes");
        assertThat(a.keys("C").effects()).containsExactly(new Effect.DecideCopy(isButDoesNotSayIt));
    }

    /** Where the decision is made, the sentence is written from the fact: both demos' refusals say it exactly where it holds. */
    @Test
    void theDecisionWritesTheSentenceFromTheFact() {
        List<dev.stsresize.plan.Decision> decided = new java.util.ArrayList<>(DemoDecisions.loaded().decisions());
        decided.addAll(DemoDecisions.copyLoaded(dev.stsresize.plan.CopyOptIn.NONE).decisions());
        List<Refusal> refusals = decided.stream().filter(Refusal.class::isInstance).map(Refusal.class::cast).toList();
        assertThat(refusals).anyMatch(Refusal::copyPossible).anyMatch(r -> !r.copyPossible());
        refusals.forEach(r -> assertThat(r.detail().contains(SENTENCE)).as(r.name() + ": " + r.detail()).isEqualTo(r.copyPossible()));
    }

    @Test
    void aRefusalRebuiltWithAnotherFindingKeepsTheFact() {
        Refusal possible = refusal("no expansion; " + SENTENCE, true);
        Refusal warned = possible.with(possible.findings(), possible.claims(), List.of("a warning"));
        assertThat(warned.copyPossible()).isTrue();
        assertThat(refusal("no expansion", false).with(List.of(new Finding(Reason.SHRINK, "s")), List.of(), List.of()).copyPossible())
                .isFalse();
    }
}
