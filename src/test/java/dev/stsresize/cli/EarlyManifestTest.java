package dev.stsresize.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A plan's manifest read from its words before picocli parses them, and used only where picocli reads the same. */
class EarlyManifestTest {
    @TempDir Path dir;

    private static Optional<EarlyManifest.Inputs> guess(String line) {
        String[] words = line.split(" ");
        return EarlyManifest.guess(Cli.invoked(words), words);
    }

    private static Optional<EarlyManifest> start(String[] words, java.io.InputStream stdin) {
        return EarlyManifest.start(Cli.invoked(words), words, stdin);
    }

    private static EarlyManifest.Inputs inputs(boolean recursive, String... files) {
        return new EarlyManifest.Inputs(List.of(files), recursive);
    }

    @Test
    void the_plain_forms_of_a_plans_files_are_guessed_in_order() {
        assertThat(guess("plan -f a.yaml")).contains(inputs(false, "a.yaml"));
        assertThat(guess("plan -A -f a.yaml --filename b.yaml -fc.yaml -f=d.yaml --filename=e.yaml -R -o json"))
                .contains(inputs(true, "a.yaml", "b.yaml", "c.yaml", "d.yaml", "e.yaml"));
        assertThat(guess("--debug plan --recursive -f dir")).contains(inputs(true, "dir"));
    }

    @Test
    void nothing_is_guessed_for_another_command_stdin_or_words_after_the_end_of_flags() {
        assertThat(guess("apply -f a.yaml")).isEmpty();
        assertThat(guess("ui -f a.yaml")).isEmpty();
        assertThat(guess("usage -f a.yaml")).isEmpty();
        assertThat(guess("plan -f -")).isEmpty();
        assertThat(guess("plan -f a.yaml -f -")).isEmpty();
        assertThat(guess("plan -- -f a.yaml")).isEmpty();
        assertThat(guess("plan -A")).isEmpty();
        assertThat(guess("plan -f")).isEmpty();
    }

    @Test
    void the_reading_is_given_only_for_exactly_its_inputs() throws IOException {
        Path a = Files.writeString(dir.resolve("a.yaml"), "kind: ConfigMap\n");
        String[] words = {"plan", "-f", a.toString()};
        EarlyManifest early = EarlyManifest.start(Cli.invoked(words), words, new ByteArrayInputStream(new byte[0])).orElseThrow();
        assertThat(early.readingOf(List.of(a.toString()), false)).isPresent();
        assertThat(early.readingOf(List.of(a.toString()), true)).isEmpty();
        assertThat(early.readingOf(List.of(a.toString(), a.toString()), false)).isEmpty();
        assertThat(early.readingOf(List.of("other.yaml"), false)).isEmpty();

        ManifestOptions same = new ManifestOptions();
        same.files = new java.util.ArrayList<>(List.of(a.toString()));
        assertThat(same.readAhead(new ByteArrayInputStream(new byte[0]), Optional.of(early)))
                .containsSame(early.readingOf(List.of(a.toString()), false).orElseThrow());
        ManifestOptions other = new ManifestOptions();
        other.files = new java.util.ArrayList<>(List.of(a.toString(), a.toString()));
        assertThat(other.readAhead(new ByteArrayInputStream(new byte[0]), Optional.of(early)).orElseThrow())
                .isNotSameAs(early.readingOf(List.of(a.toString()), false).orElseThrow());
    }

    @Test
    void only_regular_files_are_read_early_since_a_pipe_cannot_be_read_twice() throws IOException, InterruptedException {
        Path a = Files.writeString(dir.resolve("a.yaml"), "kind: ConfigMap\n");
        Path sub = Files.createDirectory(dir.resolve("manifests"));
        java.io.InputStream none = new ByteArrayInputStream(new byte[0]);
        assertThat(start(new String[] {"plan", "-f", a.toString()}, none)).isPresent();
        assertThat(start(new String[] {"plan", "-f", a.toString(), "-f", sub.toString()}, none)).isEmpty();
        assertThat(start(new String[] {"plan", "-f", dir.resolve("missing.yaml").toString()}, none)).isEmpty();
        Path fifo = dir.resolve("pipe");
        if (new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0) {
            // were it read here and the guess wrong, the command's own reading would find it drained
            assertThat(start(new String[] {"plan", "-f", fifo.toString()}, none)).isEmpty();
        }
    }

    @Test
    void where_picocli_reads_other_files_than_the_guess_the_plan_reads_picoclis() throws IOException {
        // "-Rf a" is -R and -f a to picocli, but not one of the plain forms: the guess is b alone, and must not be used
        Path a = Files.copy(Path.of(PlanCommandTest.MANIFEST), dir.resolve("a.yaml"));
        Path b = Files.writeString(dir.resolve("b.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: other}\n");
        assertThat(guess("plan -Rf " + a + " -f " + b))
                .contains(inputs(false, b.toString()));
        PlanCommandTest.Run clustered = PlanCommandTest.run("plan", "-Rf", a.toString(), "-f", b.toString(),
                "--live", PlanCommandTest.SNAPSHOT, "-o", "json");
        PlanCommandTest.Run plain = PlanCommandTest.run("plan", "-R", "-f", a.toString(), "-f", b.toString(),
                "--live", PlanCommandTest.SNAPSHOT, "-o", "json");
        assertThat(plain.out()).as(plain.describe()).contains("\"postgres\"");
        assertThat(clustered.code()).as(clustered.describe()).isEqualTo(plain.code());
        assertThat(clustered.out()).as(clustered.describe()).isEqualTo(plain.out());
        assertThat(clustered.err()).isEqualTo(plain.err());
    }
}
