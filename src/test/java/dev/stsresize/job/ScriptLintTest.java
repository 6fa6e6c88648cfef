package dev.stsresize.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The script is POSIX sh (sh -n; shellcheck when installed) and keeps the conventions the Java side states. */
class ScriptLintTest {
    static ScriptRun.Result exec(Path dir, String... cmd) throws IOException, InterruptedException {
        Path out = Files.createTempFile(dir, "out", ".txt");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new ScriptRun.Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), "");
    }

    static Path script(Path dir) throws IOException {
        Path s = dir.resolve("stsresize.sh");
        Files.writeString(s, Script.text());
        return s;
    }

    @Test
    void parses_as_posix_sh(@TempDir Path dir) throws Exception {
        ScriptRun.Result r = exec(dir, "sh", "-n", script(dir).toString());
        assertThat(r.exit()).as(r.toString()).isZero();
    }

    @Test
    void passes_shellcheck(@TempDir Path dir) throws Exception {
        assumeTrue(ScriptRun.onPath("shellcheck"), "shellcheck is not installed (CI installs Debian's package): the lint is skipped");
        ScriptRun.Result r = exec(dir, "shellcheck", "--shell=sh", script(dir).toString());
        assertThat(r.exit()).as(r.toString()).isZero();
    }

    @Test
    void shellcheck_would_catch_a_bashism(@TempDir Path dir) throws Exception {
        assumeTrue(ScriptRun.onPath("shellcheck"), "shellcheck is not installed (CI installs Debian's package): the lint is skipped");
        Path bad = dir.resolve("bad.sh");
        Files.writeString(bad, Script.text().replace("if [ \"$refused\" = 1 ]; then", "if [[ \"$refused\" == 1 ]]; then"));
        assertThat(exec(dir, "shellcheck", "--shell=sh", bad.toString()).exit()).as("the guard can fail").isNotZero();
    }

    @Test
    void names_the_lease_as_the_cli_does() {
        assertThat(Script.text()).contains("\"" + LeaseConvention.PREFIX + "$1\"");
        assertThat(LeaseConvention.leaseName("db")).isEqualTo("stsresize-db");
        assertThat(LeaseConvention.leaseName("x".repeat(300))).hasSize(253);
    }

    @Test
    void never_deletes_but_with_orphan_and_a_uid_and_never_a_claim() {
        String s = Script.text();
        assertThat(s.lines().filter(l -> l.contains("delete")).filter(l -> !l.trim().startsWith("#")))
                .allSatisfy(l -> assertThat(l).satisfiesAnyOf(x -> assertThat(x).contains("delete --raw \"/apis/apps/v1/namespaces/$ns/statefulsets/$name\""),
                        x -> assertThat(x).doesNotContain("kc delete").doesNotContain("kubectl delete")));
        assertThat(s).contains("\"propagationPolicy\":\"Orphan\",\"preconditions\":{\"uid\":\"%s\"}");
    }
}
