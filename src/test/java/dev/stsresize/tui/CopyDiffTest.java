package dev.stsresize.tui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.plan.CopyOptIn;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Verdict;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The diff of a copy plan says the copy's writes, in the copy's order and with the operator's image and class, as apply
 * does: not a grow's one orphan delete and re-apply, which a copy makes once per pod among writes of volumes.
 */
class CopyDiffTest {
    private static String diffOf(CopyOptIn copy) {
        Loaded loaded = DemoDecisions.copyLoaded(copy);
        Decision web = loaded.decisions().get(0);
        assertThat(web.verdict()).isEqualTo(Verdict.COPY);
        return DiffLines.of(web, loaded, Glyphs.UNICODE, 1000).stream().map(Styled.Line::text).collect(Collectors.joining("\n"));
    }

    @Test
    void aCopysDiffListsTheCopysWritesHighestOrdinalFirstWithTheOperatorsImage() {
        String diff = diffOf(new CopyOptIn(true, Optional.of("local-path"), "busybox:1.37.0"));

        assertThat(diff).contains("Writes to come, a copy").contains("set to reclaim policy Retain").contains("image busybox:1.37.0")
                .contains("delete the original claim (UID precondition; its volume kept, Retain)").contains("never deleted");
        assertThat(diff.indexOf("claim data-web-1 1Gi -> 2Gi on a new volume of class local-path")).isPositive()
                .isLessThan(diff.indexOf("claim data-web-0 1Gi -> 2Gi on a new volume of class local-path"));
    }

    @Test
    void aCopysDiffDoesNotSayAGrowsLoneDeleteAndReapply() {
        String diff = diffOf(CopyOptIn.withDefaults());

        assertThat(diff).contains("image " + CopyOptIn.DEFAULT_IMAGE).contains("on a new volume of class local-path");
        assertThat(diff).as("no grow's write list").doesNotContain("the wizard asks before each").doesNotContain(" 1. kubectl delete --raw");
    }

    @Test
    void aGrowsDiffStillListsItsWritesAsKubectlCommands() {
        Loaded demo = DemoDecisions.loaded();
        Decision postgres = DemoDecisions.named("postgres");
        String diff = DiffLines.of(postgres, demo, Glyphs.UNICODE, 1000).stream().map(Styled.Line::text).collect(Collectors.joining("\n"));

        assertThat(diff).contains("the wizard asks before each").contains("kubectl delete --raw").doesNotContain("a copy");
        assertThat(List.of(diff.split("\n"))).anyMatch(l -> l.contains("kubectl patch pvc"));
    }
}
