package dev.stsresize.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.stsresize.testkit.Processes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher and the completion helper run under whatever /bin/sh the user has (dash, busybox, macOS's
 * bash as sh), so they are POSIX sh: {@code sh -n}, and shellcheck when installed (CI installs it).
 */
class LauncherLintTest {
    private static final Path SCRIPTS = Path.of("src/main/sh");

    @ParameterizedTest
    @ValueSource(strings = {"kubectl-stsresize", "kubectl_complete-stsresize"})
    void parsesAsPosixSh(String script) throws Exception {
        var r = Processes.run(Map.of(), Path.of("."), Duration.ofSeconds(60), "sh", "-n", SCRIPTS.resolve(script).toString());
        assertThat(r.code()).as(r.out() + r.err()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"kubectl-stsresize", "kubectl_complete-stsresize"})
    void passesShellcheck(String script) throws Exception {
        assumeTrue(Processes.onPath("shellcheck"), "shellcheck is not installed (CI installs Debian's package): the lint is skipped");
        var r = Processes.run(Map.of(), Path.of("."), Duration.ofSeconds(60), "shellcheck", "--shell=sh", SCRIPTS.resolve(script).toString());
        assertThat(r.code()).as(r.out() + r.err()).isZero();
    }

    @Test
    void shellcheckWouldCatchABashismInTheLauncher(@TempDir Path dir) throws Exception {
        assumeTrue(Processes.onPath("shellcheck"), "shellcheck is not installed (CI installs Debian's package): the lint is skipped");
        String launcher = Files.readString(SCRIPTS.resolve("kubectl-stsresize"));
        String bashism = "if [ \"$major\" -ge 25 ]; then";
        assertThat(launcher).contains(bashism);
        Path bad = dir.resolve("kubectl-stsresize");
        Files.writeString(bad, launcher.replace(bashism, "if [[ $major -ge 25 ]]; then"));
        var r = Processes.run(Map.of(), dir, Duration.ofSeconds(60), "shellcheck", "--shell=sh", bad.toString());
        assertThat(r.code()).as("the guard can fail: " + r.out()).isNotZero();
    }
}
