package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.plan.ClaimState;
import dev.stsresize.plan.CopyOptIn;
import dev.stsresize.plan.Plan;
import dev.stsresize.plan.Quantity;
import dev.stsresize.plan.Verdict;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What the operator reads of a copy before its first write: its steps in the copy's order, each claim under the step that copies it. */
class CopyPlanTest {
    private static ClaimState claim(int ordinal, boolean scaledAway) {
        return new ClaimState("data-web-" + ordinal, "data", ordinal, Quantity.parse("1Gi"), Quantity.parse("1Gi"), "Bound",
                "local-path", false, Quantity.parse("2Gi"), scaledAway, true);
    }

    private static Plan plan(Verdict verdict, List<ClaimState> claims) {
        return new Plan("files", "web", verdict, List.of(), claims, List.of(), "");
    }

    @Test
    void theStepsComeInTheCopysOrderWithEachClaimHighestOrdinalFirstUnderTheStepThatCopiesIt() {
        List<CopyPlan.Line> lines = CopyPlan.of(plan(Verdict.COPY, List.of(claim(0, false).toCopy(), claim(2, true).toCopy(),
                claim(1, false).toCopy())), new CopyOptIn(true, Optional.of("bigger"), "busybox:1.37.0"));

        assertThat(lines).extracting(CopyPlan.Line::claim).containsExactly(false, false, true, true, true, false, false);
        assertThat(lines.get(0).text()).startsWith("before the first copy").contains("Retain");
        assertThat(lines.get(1).text()).contains("orphan-delete StatefulSet web (UID precondition)").contains("image busybox:1.37.0")
                .containsSubsequence("run a copy pod", "set the new volume to Retain", "delete the copy pod and the temporary claim",
                        "re-point the new volume", "delete the original claim", "create the claim on the new volume", "re-apply");
        assertThat(lines.subList(2, 5)).extracting(CopyPlan.Line::text).containsExactly(
                "claim data-web-2 1Gi -> 2Gi on a new volume of class bigger (scaled-away ordinal: no pod to evict)",
                "claim data-web-1 1Gi -> 2Gi on a new volume of class bigger",
                "claim data-web-0 1Gi -> 2Gi on a new volume of class bigger");
        assertThat(lines.get(5).text()).contains("reclaim policy set back");
        assertThat(lines.get(6).text()).contains("old volumes are kept (Released, Retain), never deleted");
    }

    @Test
    void withoutAClassChosenEachClaimIsCopiedToItsOwnClass() {
        List<CopyPlan.Line> lines = CopyPlan.of(plan(Verdict.COPY, List.of(claim(0, false).toCopy())), CopyOptIn.withDefaults());

        assertThat(lines.get(2).text()).isEqualTo("claim data-web-0 1Gi -> 2Gi on a new volume of class local-path");
        assertThat(lines.get(1).text()).contains("image " + CopyOptIn.DEFAULT_IMAGE);
    }

    @Test
    void aPlanThatCopiesNothingHasNoCopySteps() {
        assertThat(CopyPlan.of(plan(Verdict.GROW, List.of(claim(0, false))), CopyOptIn.withDefaults())).isEmpty();
        assertThat(CopyPlan.of(plan(Verdict.UP_TO_DATE, List.of(claim(0, false).toCopy())), CopyOptIn.withDefaults()))
                .as("a plan without work copies nothing").isEmpty();
    }
}
