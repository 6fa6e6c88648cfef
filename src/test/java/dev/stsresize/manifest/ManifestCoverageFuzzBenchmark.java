package dev.stsresize.manifest;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.stsresize.UserError;
import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;

/**
 * Coverage-guided fuzzing (Jazzer) of what reads a user's file: the manifest reader, as {@code -f -} reads raw bytes and
 * as a file's documents are checked, and set-size's editor. Jazzer instruments the project's classes and keeps the
 * inputs that reach new branches, so it finds its way into the reader's and the editor's corners from the seeds in
 * {@code ManifestCoverageFuzzBenchmarkInputs/} (test resources) instead of by chance as {@link ManifestFuzzBenchmark}'s
 * YAML-aware mutations do. A {@link UserError} (the one paragraph a user sees) is the only acceptable failure: anything
 * else thrown is a finding, which stops the run and is written next to the seeds as {@code crash-<sha1>}, from where
 * every later run of this test (with or without fuzzing) replays it.
 *
 * <p>Run with {@code JAZZER_FUZZ=1 mvn -B -Pbench test -pl plugin -Dtest=ManifestCoverageFuzzBenchmark} (a million
 * inputs; docs/testing.md has the last run's figures). Without {@code JAZZER_FUZZ} it replays the seeds and any
 * crash files only.
 */
@Tag("bench")
class ManifestCoverageFuzzBenchmark {
    /** The sizes set-size is given: valid growths and the texts a user may type by mistake. */
    private static final List<String> SIZES = List.of("11Gi", "20Gi", "2048Mi", "10737418241", "1e100", "-1Gi", "0", "10Gi",
            "9223372036854775807Ei", "1e-101", ".", "~", "", "10\u00a0Gi", "1.5Ti", "0x1F", "+1Gi", "1E3Gi");
    private static final List<String> TEMPLATES = List.of("data", "wal", "logs");

    /**
     * The input's last two bytes choose the size and the template (Jazzer's data provider takes numbers from the end);
     * the rest is the manifest, as bytes that need not be UTF-8. Jazzer's own limit of 5 minutes would end the run
     * first on a shared machine, so the count of inputs is what ends it.
     */
    @FuzzTest(maxExecutions = 1_000_000, maxDuration = "3h")
    void the_manifest_reader_and_set_size_raise_only_user_errors(FuzzedDataProvider data) {
        String size = SIZES.get(data.consumeInt(0, SIZES.size() - 1));
        String template = TEMPLATES.get(data.consumeInt(0, TEMPLATES.size() - 1));
        byte[] bytes = data.consumeRemainingAsBytes();
        String text = new String(bytes, StandardCharsets.UTF_8);
        try {
            new ManifestReader(new ByteArrayInputStream(bytes), ReadLimits.DEFAULT).read(List.of("-"), false, "shop", false);
        } catch (UserError refused) {
            // the answer a user may get
        }
        try {
            new DocumentReader(ReadLimits.DEFAULT).read("fuzz.yaml", new StringReader(text), doc -> {
                if (doc.is("apps/v1", "StatefulSet")) {
                    ManifestReader.validated(doc, "shop", false);
                }
            });
        } catch (UserError refused) {
            // the answer a user may get
        }
        try {
            new ManifestEditor("fuzz.yaml", text, "shop").setSizes("shop", "db", Map.of(template, size));
        } catch (UserError refused) {
            // the answer a user may get
        }
    }
}
