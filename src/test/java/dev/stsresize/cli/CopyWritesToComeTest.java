package dev.stsresize.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.converge.Assessed;
import dev.stsresize.converge.Assessment;
import dev.stsresize.converge.ConvergeOptions;
import dev.stsresize.plan.ClaimState;
import dev.stsresize.plan.CopyOptIn;
import dev.stsresize.plan.Plan;
import dev.stsresize.plan.Quantity;
import dev.stsresize.plan.Verdict;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What apply says before a copy's first write: each pod down in turn, highest ordinal first, and no volume deleted. */
class CopyWritesToComeTest {
    private static ClaimState toCopy(int ordinal) {
        return new ClaimState("data-web-" + ordinal, "data", ordinal, Quantity.parse("1Gi"), Quantity.parse("1Gi"), "Bound",
                "local-path", false, Quantity.parse("2Gi"), false, true).toCopy();
    }

    @Test
    void aCopyPlanListsTheCopyStepsPerClaimHighestOrdinalFirstAndNoOtherRecreate() {
        Plan copy = new Plan("files", "web", Verdict.COPY, List.of(), List.of(toCopy(0), toCopy(1)), List.of(), "");
        ObjectNode live = new ObjectMapper().createObjectNode();
        live.putObject("metadata").put("uid", "u-1");
        Assessed a = new Assessed(copy, live, live, live, "kubectl", null);
        ConvergeOptions opts = ConvergeOptions.defaults().withCopy(new CopyOptIn(true, Optional.of("bigger"), "busybox:1.37.0"));
        String said = ApplyCommand.writesToCome(new Assessment(List.of(a), List.of(), Set.of(), List.of()), opts);
        assertThat(said).contains("set to reclaim policy Retain").contains("one pod at a time, highest ordinal first")
                .contains("image busybox:1.37.0").contains("never deleted");
        assertThat(said.indexOf("claim data-web-1 1Gi -> 2Gi on a new volume of class bigger"))
                .isPositive().isLessThan(said.indexOf("claim data-web-0 1Gi -> 2Gi on a new volume of class bigger"));
        assertThat(said).as("no claim patch, and the re-create is said per pod, not once").doesNotContain("grow claim")
                .doesNotContain("  - orphan-delete StatefulSet");
    }
}
