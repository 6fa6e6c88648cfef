package dev.stsresize.tui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.converge.Phase;
import dev.stsresize.plan.CopyOptIn;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Verdict;
import org.junit.jupiter.api.Test;

/**
 * The verify row says what this run verifies: a grow keeps its pods (same UIDs), a copy re-creates them on purpose. The
 * wizard draws {@link Phase#purposeIn} (the goldens wizard-grow-gate and wizard-copy-name-gate show both rows).
 */
class VerifyRowTest {
    @Test
    void aGrowsVerifyRowSaysThePodsAreKeptACopysThatTheyStandOnTheNewVolumes() {
        Decision grow = DemoDecisions.named("postgres");
        Decision copy = DemoDecisions.copyLoaded(CopyOptIn.withDefaults()).decisions().get(0);
        assertThat(grow.verdict()).isEqualTo(Verdict.GROW);
        assertThat(copy.verdict()).isEqualTo(Verdict.COPY);

        assertThat(Phase.VERIFY.purposeIn(grow)).contains("same UIDs").doesNotContain("re-created");
        assertThat(Phase.VERIFY.purposeIn(copy)).contains("re-created").contains("new volumes").doesNotContain("same UIDs");
        assertThat(Phase.GROW.purposeIn(copy)).as("a phase a copy does alike says it alike").isEqualTo(Phase.GROW.purposeIn(grow));
    }
}
