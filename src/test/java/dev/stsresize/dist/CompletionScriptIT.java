package dev.stsresize.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bash script of {@code completion bash}, sourced into a real bash and asked as bash asks it. */
class CompletionScriptIT {
    static final Path TARGET = Paths.get(System.getProperty("stsresize.launcher", "target/kubectl-stsresize"))
            .toAbsolutePath().getParent();

    private static String complete(Path tmp, String... words) throws Exception {
        // COMP_WORDS as bash splits the line, COMP_CWORD the word under the cursor
        String array = String.join(" ", java.util.Arrays.stream(words).map(w -> "'" + w + "'").toList());
        String script = "source <(kubectl-stsresize completion bash)\n"
                + "COMP_WORDS=(kubectl-stsresize " + array + "); COMP_CWORD=" + words.length + "\n"
                + "_kubectl_stsresize\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n";
        DistributionIT.Run r = DistributionIT.run(Map.of("PATH", TARGET + ":" + System.getenv("PATH"),
                "XDG_CACHE_HOME", tmp.resolve("cache").toString()), tmp, "bash", "-c", script);
        assertThat(r.code()).as(r.describe()).isZero();
        assertThat(r.err()).as(r.describe()).isEmpty();
        return r.out();
    }

    @Test
    void bashCompletesSubcommandsFlagValuesAndFallsBackToFiles(@TempDir Path tmp) throws Exception {
        assumeTrue(DistributionIT.onPath("bash"), "bash is not installed");
        assertThat(complete(tmp, "pl")).isEqualTo("plan\n");
        assertThat(complete(tmp, "plan", "-o", "")).isEqualTo("table\njson\nyaml\n");
        java.nio.file.Files.writeString(tmp.resolve("manifest.yaml"), "");
        assertThat(complete(tmp, "plan", "-f", "man")).isEqualTo("manifest.yaml\n");
    }
}
