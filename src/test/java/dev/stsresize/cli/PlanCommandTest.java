package dev.stsresize.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.stsresize.Golden;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The offline plan, run in-process exactly as Main runs it. */
class PlanCommandTest {
    static final String MANIFEST = "examples/manifest.yaml";
    static final String SNAPSHOT = "examples/live-snapshot.yaml";

    @TempDir Path dir;

    record Run(int code, String out, String err) {
        /** Every assertion message carries the whole run. */
        String describe() {
            return "exit " + code + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    static Run run(String... args) {
        return runWith("", Map.of(), false, args);
    }

    static Run runWith(String stdin, Map<String, String> env, boolean terminal, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = new Cli(new PrintWriter(out), new PrintWriter(err),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), env, terminal).run(args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void plansTheExamplesAsReadmeShowsThem() {
        Run r = run("plan", "-f", MANIFEST, "--live", SNAPSHOT);
        assertThat(r.code()).as(r.describe()).isEqualTo(ExitCodes.REFUSED);
        assertThat(r.err()).as(r.describe()).isEmpty();
        assertThat(r.out()).as(r.describe()).doesNotContain("\u001b[")
                .contains("shop/postgres  GROW", "shop/redis  REFUSED: shrink", "shop/kafka  UP TO DATE", "shop/search  GROW CLAIMS");
        Golden.assertMatches("plan/examples.table.txt", r.out());
    }

    @Test
    void writesTheJsonContract() throws IOException {
        Run r = run("plan", "-f", MANIFEST, "--live", SNAPSHOT, "-o", "json");
        assertThat(r.code()).as(r.describe()).isEqualTo(ExitCodes.REFUSED);
        assertThat(r.err()).as(r.describe()).isEmpty();
        Golden.assertMatches("plan/examples.json", r.out());
        JsonNode doc = new ObjectMapper().readTree(r.out());
        assertThat(doc.path("apiVersion").asText()).isEqualTo("stsresize/v1");
        assertThat(doc.path("kind").asText()).isEqualTo("Plan");
        List<String> order = new ArrayList<>();
        doc.path("items").forEach(i -> order.add(i.path("namespace").asText() + "/" + i.path("name").asText()));
        assertThat(order).as("sorted by namespace then name").containsExactly("shop/kafka", "shop/postgres", "shop/redis", "shop/search");
        JsonNode postgres = doc.path("items").get(1);
        assertThat(postgres.has("reason")).as("reason only for refused and blocked").isFalse();
        assertThat(postgres.path("recreate").asBoolean()).isTrue();
        assertThat(postgres.path("claims")).extracting(c -> c.path("name").asText())
                .containsExactly("data-postgres-0", "data-postgres-1", "data-postgres-2", "data-postgres-3");
        assertThat(doc.path("items").get(2).path("reason").asText()).isEqualTo("shrink");
        assertThat(doc.path("items").get(2).path("claims")).as("a refusal lists its claims, and grows none")
                .isNotEmpty().noneMatch(c -> c.path("action").asText().equals("grow"));
        assertThat(doc.path("items").get(0).path("templates")).as("only templates whose size changes").isEmpty();
    }

    @Test
    void writesTheSameDocumentAsYaml() throws IOException {
        Run json = run("plan", "-f", MANIFEST, "--live", SNAPSHOT, "-o", "json");
        Run yaml = run("plan", "-f", MANIFEST, "--live", SNAPSHOT, "-o", "yaml");
        assertThat(yaml.code()).as(yaml.describe()).isEqualTo(ExitCodes.REFUSED);
        assertThat(yaml.out()).as(yaml.describe()).startsWith("apiVersion: stsresize/v1\n");
        assertThat(new YAMLMapper().readTree(yaml.out())).isEqualTo(new ObjectMapper().readTree(json.out()));
    }

    @Test
    void coloursOnlyOnATerminalAndNeverUnderNoColorOrColorNever() {
        Run pipe = runWith("", Map.of(), false, "plan", "-f", MANIFEST, "--live", SNAPSHOT);
        Run tty = runWith("", Map.of(), true, "plan", "-f", MANIFEST, "--live", SNAPSHOT);
        Run noColor = runWith("", Map.of("NO_COLOR", "1"), true, "plan", "-f", MANIFEST, "--live", SNAPSHOT, "--color", "always");
        Run never = runWith("", Map.of(), true, "plan", "-f", MANIFEST, "--live", SNAPSHOT, "--color", "never");
        Run always = runWith("", Map.of(), false, "plan", "-f", MANIFEST, "--live", SNAPSHOT, "--color", "always");
        assertThat(pipe.out()).as(pipe.describe()).doesNotContain("\u001b[");
        assertThat(tty.out()).as(tty.describe()).contains("\u001b[32m");
        assertThat(noColor.out()).as(noColor.describe()).doesNotContain("\u001b[").isEqualTo(pipe.out());
        assertThat(never.out()).as(never.describe()).isEqualTo(pipe.out());
        assertThat(always.out()).as(always.describe()).isEqualTo(tty.out());
        assertThat(always.out().replaceAll("\u001b\\[[0-9;]*m", "")).as("colour adds escapes and nothing else").isEqualTo(pipe.out());
        Golden.assertMatches("plan/examples.color.txt", always.out());
    }

    @Test
    void exitsThreeWithExitCodeWhenThereIsWorkAndZeroWhenNone() throws IOException {
        Path grow = Files.writeString(dir.resolve("grow.yaml"), onlyDocument("postgres"));
        Path same = Files.writeString(dir.resolve("same.yaml"), onlyDocument("kafka"));
        Run work = run("plan", "-f", grow.toString(), "--live", SNAPSHOT, "--exit-code", "-n", "shop");
        Run workNoFlag = run("plan", "-f", grow.toString(), "--live", SNAPSHOT, "-n", "shop");
        Run none = run("plan", "-f", same.toString(), "--live", SNAPSHOT, "--exit-code", "-n", "shop");
        assertThat(work.code()).as(work.describe()).isEqualTo(ExitCodes.WORK_TO_DO);
        assertThat(workNoFlag.code()).as(workNoFlag.describe()).isEqualTo(ExitCodes.OK);
        assertThat(none.code()).as(none.describe()).isEqualTo(ExitCodes.OK);
        assertThat(none.out()).as(none.describe()).contains("UP TO DATE");
    }

    @Test
    void exitsOneWhenBlocked() throws IOException {
        String snapshot = Files.readString(Path.of(SNAPSHOT)).replaceFirst("(?s)(name: data-postgres-1\n.*?phase: )Bound", "$1Pending");
        Path live = Files.writeString(dir.resolve("live.yaml"), snapshot);
        Path grow = Files.writeString(dir.resolve("grow.yaml"), onlyDocument("postgres"));
        Run r = run("plan", "-f", grow.toString(), "--live", live.toString(), "-o", "json", "-n", "shop");
        assertThat(r.code()).as(r.describe()).isEqualTo(ExitCodes.FAILED);
        assertThat(r.out()).as(r.describe()).contains("\"verdict\": \"blocked\"", "\"reason\": \"claim-unbound\"");
    }

    @Test
    void readsTheManifestFromStdin() throws IOException {
        Run r = runWith(Files.readString(Path.of(MANIFEST)), Map.of(), false, "plan", "-f", "-", "--live", SNAPSHOT, "-o", "json");
        assertThat(r.code()).as(r.describe()).isEqualTo(ExitCodes.REFUSED);
        assertThat(r.out()).as(r.describe()).isEqualTo(run("plan", "-f", MANIFEST, "--live", SNAPSHOT, "-o", "json").out());
    }

    @Test
    void considersOnlyTheManifestsNamespacesWithoutMinusA() throws IOException {
        // the same StatefulSets, claims and class copied into namespace "other": without -A they are not read
        String snapshot = Files.readString(Path.of(SNAPSHOT));
        Path live = Files.writeString(dir.resolve("live.yaml"), snapshot);
        Path other = Files.writeString(dir.resolve("other.yaml"), snapshot.replace("namespace: shop", "namespace: other"));
        Path m = Files.writeString(dir.resolve("m.yaml"), onlyDocument("postgres"));
        Run scoped = run("plan", "-f", m.toString(), "--live", live.toString(), "--live", other.toString(), "-v=2");
        assertThat(scoped.code()).as(scoped.describe()).isZero();
        assertThat(scoped.err()).as(scoped.describe()).contains("in shop").contains("4 StatefulSet(s), 11 claim(s)");
        Run all = run("plan", "-f", m.toString(), "--live", live.toString(), "--live", other.toString(), "-A", "-v=2");
        assertThat(all.err()).as(all.describe()).contains("in every namespace").contains("8 StatefulSet(s), 22 claim(s)");
        assertThat(all.out()).as(all.describe()).isEqualTo(scoped.out());
    }

    @Test
    void reportsSkippedDocumentsOnlyAtVerbosityTwo() {
        Run quiet = run("plan", "-f", MANIFEST, "--live", SNAPSHOT);
        Run v2 = run("plan", "-f", MANIFEST, "--live", SNAPSHOT, "-v", "2");
        assertThat(quiet.err()).as(quiet.describe()).isEmpty();
        assertThat(v2.err()).as(v2.describe()).contains("skipped 1 other document(s): v1 Service x1");
        assertThat(v2.out()).isEqualTo(quiet.out());
    }

    @Test
    void refusesMinusNWithMinusA() {
        Run r = run("plan", "-f", MANIFEST, "--live", SNAPSHOT, "-n", "shop", "-A");
        assertThat(r.code()).as(r.describe()).isEqualTo(ExitCodes.FAILED);
        assertThat(r.out()).as(r.describe()).isEmpty();
        assertThat(r.err()).as(r.describe()).contains("-n and -A cannot be used together");
    }

    @Test
    void refusesAnUnknownColorOrOutput() {
        Run color = run("plan", "-f", MANIFEST, "--live", SNAPSHOT, "--color", "sometimes");
        Run output = run("plan", "-f", MANIFEST, "--live", SNAPSHOT, "-o", "wide");
        assertThat(color.code()).as(color.describe()).isEqualTo(ExitCodes.FAILED);
        assertThat(color.err()).as(color.describe()).contains("--color takes auto, always or never");
        assertThat(output.code()).as(output.describe()).isEqualTo(ExitCodes.FAILED);
        assertThat(output.err()).as(output.describe()).contains("wide");
    }

    @Test
    void reportsBadInputInOneParagraphWithoutAStackTrace() throws IOException {
        Path bad = Files.writeString(dir.resolve("bad.yaml"), "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: [x\n");
        Run r = run("plan", "-f", bad.toString(), "--live", SNAPSHOT);
        assertThat(r.code()).as(r.describe()).isEqualTo(ExitCodes.FAILED);
        assertThat(r.out()).as(r.describe()).isEmpty();
        assertThat(r.err()).as(r.describe()).startsWith("error: " + bad + ", document 1").doesNotContain("\tat ");
        assertThat(r.err().strip().lines().count()).as(r.describe()).isEqualTo(1);
    }

    @Test
    void aManifestWithNoStatefulSetIsAnErrorNamingTheFilesReadAsKubectlsNoObjectsPassedToApply() throws IOException {
        Path empty = Files.writeString(dir.resolve("empty.yaml"), "");
        Path others = Files.writeString(dir.resolve("others.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n"
                + "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n");
        for (String output : List.of("table", "json")) {
            Run r = run("plan", "-f", empty.toString(), "-f", others.toString(), "--live", SNAPSHOT, "-o", output);
            assertThat(r.code()).as(r.describe()).isEqualTo(ExitCodes.FAILED);
            assertThat(r.out()).as("no plan of nothing: " + r.describe()).isEmpty();
            assertThat(r.err()).as(r.describe()).startsWith("error: no StatefulSet passed (read " + empty + ", " + others
                    + ": only v1 ConfigMap ×2)").doesNotContain("0 StatefulSets");
            assertThat(r.err().strip().lines().count()).as(r.describe()).isEqualTo(1);
        }
        Run fromStdin = runWith("", Map.of(), false, "plan", "-f", "-", "--live", SNAPSHOT);
        assertThat(fromStdin.code()).as(fromStdin.describe()).isEqualTo(ExitCodes.FAILED);
        assertThat(fromStdin.err()).as(fromStdin.describe()).startsWith("error: no StatefulSet passed (read <stdin>: no document)");
    }

    @Test
    void requiresAManifestAndASnapshot() {
        Run r = run("plan", "--live", SNAPSHOT);
        assertThat(r.code()).as(r.describe()).isEqualTo(ExitCodes.FAILED);
        assertThat(r.err()).as(r.describe()).contains("--filename");
    }

    @Test
    void helpStartsWithKubectlStsresize() {
        Run r = run("plan", "--help");
        assertThat(r.code()).as(r.describe()).isZero();
        assertThat(r.out()).as(r.describe()).startsWith("Usage: kubectl stsresize plan");
    }

    @Test
    void computesExitCodesByPrecedence() {
        assertThat(ResultPrinter.exitCode(List.of(), true)).isZero();
    }

    /** One StatefulSet document of the example manifest. */
    private static String onlyDocument(String name) throws IOException {
        for (String doc : Files.readString(Path.of(MANIFEST)).split("(?m)^---\n")) {
            if (doc.contains("kind: StatefulSet") && doc.contains("\n  name: " + name + "\n")) {
                return doc;
            }
        }
        throw new AssertionError("no StatefulSet " + name + " in " + MANIFEST);
    }

    @Test
    void fitsColumnsEightyAndLeavesTwoHundredAsTheUnlimitedTable() {
        Run narrow = runWith("", Map.of("COLUMNS", "80"), false, "plan", "-f", MANIFEST, "--live", SNAPSHOT);
        assertThat(narrow.code()).as(narrow.describe()).isEqualTo(ExitCodes.REFUSED);
        for (String line : narrow.out().lines().toList()) {
            assertThat(line.codePointCount(0, line.length())).as(narrow.describe()).isLessThanOrEqualTo(80);
        }
        assertThat(narrow.out()).as(narrow.describe()).contains("shop/postgres  GROW", "shop/redis  REFUSED: shrink",
                "data-postgres-3  10Gi", "grow, scaled away");
        // the refusal's sentence wraps instead of running past the edge
        assertThat(narrow.out().replaceAll("\n +", " ")).contains("a volume cannot shrink, declare 5Gi or more");

        Run wide = runWith("", Map.of("COLUMNS", "200"), false, "plan", "-f", MANIFEST, "--live", SNAPSHOT);
        Golden.assertMatches("plan/examples.table.txt", wide.out());
        Run colour = runWith("", Map.of("COLUMNS", "80"), false, "plan", "-f", MANIFEST, "--live", SNAPSHOT, "--color", "always");
        assertThat(colour.out().replaceAll("\u001b\\[[0-9;]*m", "")).isEqualTo(narrow.out());
    }

    @Test
    void ignoresAColumnsThatIsNoNumber() {
        Run r = runWith("", Map.of("COLUMNS", "wide"), false, "plan", "-f", MANIFEST, "--live", SNAPSHOT);
        Golden.assertMatches("plan/examples.table.txt", r.out());
        assertThat(TerminalWidth.parse(" 132 ")).isEqualTo(132);
        assertThat(TerminalWidth.parse("-3")).isEqualTo(TerminalWidth.NONE);
        assertThat(TerminalWidth.of(Map.of(), false, false)).as("not a terminal, no COLUMNS: no limit").isEqualTo(TerminalWidth.NONE);
    }
}
