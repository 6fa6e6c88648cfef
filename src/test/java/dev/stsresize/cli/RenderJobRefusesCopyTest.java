package dev.stsresize.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.cli.PlanCommandTest.Run;
import org.junit.jupiter.api.Test;

/**
 * render-job has no copy: the copy runs pods and re-creates claims with downtime an operator watches, which a
 * Job before a rollout cannot. Asked for one, it says so in one paragraph and writes nothing, where it would otherwise
 * have rendered the Job.
 */
class RenderJobRefusesCopyTest {
    @Test
    void withCopyItRefusesSayingWhyAndWhatToRunInstead() {
        Run r = PlanCommandTest.run("render-job", "-f", PlanCommandTest.MANIFEST, "--kubernetes-version", "1.32", "-n", "shop", "--copy");
        assertThat(r.code()).as(r.describe()).isEqualTo(ExitCodes.FAILED);
        assertThat(r.out()).as(r.describe()).isEmpty();
        assertThat(r.err()).as(r.describe()).startsWith("error: render-job does not copy volumes: the copy migration runs a pod per claim")
                .contains("Run kubectl stsresize apply --copy -f MANIFEST from a terminal").contains("Nothing was written.");
        assertThat(r.err().lines().filter(l -> l.startsWith("error: ")).count()).as(r.describe()).isEqualTo(1);
    }

    @Test
    void withoutCopyTheSameCommandRendersTheJob() {
        Run r = PlanCommandTest.run("render-job", "-f", PlanCommandTest.MANIFEST, "--kubernetes-version", "1.32", "-n", "shop");
        assertThat(r.code()).as(r.describe()).isEqualTo(ExitCodes.OK);
        assertThat(r.out()).as(r.describe()).contains("kind: Job");
    }
}
