package dev.stsresize.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.Golden;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** README's first command, run exactly as written through the real launcher and jar. */
class PlanExampleIT {
    private static final Path LAUNCHER = Path.of(System.getProperty("stsresize.launcher", "target/kubectl-stsresize"));

    @Test
    void readmesPlanCommandShowsTheExamplePlan() throws Exception {
        ProcessBuilder pb = new ProcessBuilder(LAUNCHER.toString(), "plan", "-f", "examples/manifest.yaml",
                "--live", "examples/live-snapshot.yaml");
        pb.environment().remove("NO_COLOR");
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String run = "exit " + p.exitValue() + "\n--- stdout\n" + out + "--- stderr\n" + err;
        assertThat(p.exitValue()).as("redis is refused (shrink), so 2\n" + run).isEqualTo(ExitCodes.REFUSED);
        assertThat(err).as(run).isEmpty();
        assertThat(out).as("no colour on a pipe\n" + run).doesNotContain("\u001b[");
        Golden.assertMatches("plan/examples.table.txt", out);
    }
}
