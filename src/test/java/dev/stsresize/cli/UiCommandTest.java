package dev.stsresize.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.stsresize.cli.PlanCommandTest.Run;
import dev.stsresize.sim.SimCluster;
import dev.stsresize.sim.demo.DemoScenario;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ui command where no terminal is (tests run with stdout piped): the plan table and how to apply. */
class UiCommandTest {
    static final String MANIFEST = PlanCommandTest.MANIFEST;
    static final String SNAPSHOT = PlanCommandTest.SNAPSHOT;

    @Test
    void withoutATerminalPrintsThePlanTableAndHowToApply() {
        Run ui = PlanCommandTest.run("ui", "-f", MANIFEST, "--live", SNAPSHOT);
        Run plan = PlanCommandTest.run("plan", "-f", MANIFEST, "--live", SNAPSHOT, "--color", "never");
        assertThat(ui.out()).as(ui.describe()).isEqualTo(plan.out());
        assertThat(ui.err()).as(ui.describe()).contains("No terminal").contains("kubectl stsresize apply -f " + MANIFEST);
        assertThat(ui.code()).as("the plan's exit code: the example refuses a shrink; " + ui.describe()).isEqualTo(plan.code());
    }

    @Test
    void optionsWithoutACommandMeanTheUi() {
        Run r = PlanCommandTest.run("-f", MANIFEST, "--live", SNAPSHOT);
        assertThat(r.err()).as(r.describe()).contains("No terminal");
        assertThat(r.out()).as(r.describe()).contains("shop/postgres  GROW");
    }

    @Test
    void helpAndVersionStayTheRootCommands() {
        Run help = PlanCommandTest.run("--help");
        assertThat(help.code()).as(help.describe()).isZero();
        assertThat(help.out()).as(help.describe()).contains("Usage: kubectl stsresize").contains("ui");
        Run version = PlanCommandTest.run("--version");
        assertThat(version.code()).as(version.describe()).isZero();
        assertThat(version.err()).as(version.describe()).doesNotContain("No terminal");
    }

    @Test
    void aBadManifestIsAOneLineErrorBeforeAnyScreen() {
        Run r = PlanCommandTest.run("ui", "-f", "no-such-file.yaml", "--live", SNAPSHOT);
        assertThat(r.code()).as(r.describe()).isEqualTo(ExitCodes.FAILED);
        assertThat(r.err()).as(r.describe()).startsWith("error: ").contains("no-such-file.yaml").doesNotContain("Exception");
    }

    @Test
    void stdinCannotFeedBothInputs() {
        Run r = PlanCommandTest.run("ui", "-f", "-", "--live", "-");
        assertThat(r.code()).as(r.describe()).isEqualTo(ExitCodes.FAILED);
        assertThat(r.err()).as(r.describe()).contains("standard input");
    }

    @Test
    void rewritesOnlyArgumentsThatStartWithAnOption() {
        assertThat(UiCommand.withImplicitUi(new String[] {"-f", "m.yaml"})).containsExactly("ui", "-f", "m.yaml");
        assertThat(UiCommand.withImplicitUi(new String[] {"plan", "-f", "m.yaml"})).containsExactly("plan", "-f", "m.yaml");
        assertThat(UiCommand.withImplicitUi(new String[] {"-h"})).containsExactly("-h");
        // --debug before the command, as kubectl's global flags go: the command's flag
        assertThat(UiCommand.withImplicitUi(new String[] {"--debug", "version"})).containsExactly("version", "--debug");
        assertThat(UiCommand.withImplicitUi(new String[] {"--debug", "plan", "-f", "m.yaml"})).containsExactly("plan", "-f", "m.yaml",
                "--debug");
        assertThat(UiCommand.withImplicitUi(new String[] {"--debug", "-f", "m.yaml"})).containsExactly("ui", "--debug", "-f", "m.yaml");
        assertThat(UiCommand.withImplicitUi(new String[] {})).isEmpty();
    }

    @Test
    void againstTheClusterWithoutATerminalPrintsTheLivePlanAndTheApplyWithTheSameConnectionFlags(@TempDir Path dir) throws Exception {
        try (SimCluster sim = SimCluster.start()) {
            sim.load(DemoScenario.cluster().toArray(ObjectNode[]::new));
            Path kubeconfig = dir.resolve("kubeconfig");
            sim.writeKubeconfig(kubeconfig);
            Path manifest = dir.resolve("manifest.yaml");
            ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
            StringBuilder b = new StringBuilder();
            for (ObjectNode o : DemoScenario.manifest()) {
                b.append(yaml.writeValueAsString(o));
            }
            Files.writeString(manifest, b.toString(), StandardCharsets.UTF_8);
            Run ui = PlanCommandTest.run("ui", "--kubeconfig", kubeconfig.toString(), "-f", manifest.toString(), "-A");
            // the usage line of plan's table is not the UI's plain print (yet): compare without it
            Run plan = PlanCommandTest.run("plan", "--kubeconfig", kubeconfig.toString(), "-f", manifest.toString(), "-A", "--color", "never",
                    "--no-usage");
            assertThat(ui.out()).as(ui.describe()).isEqualTo(plan.out()).contains("shop/postgres").contains("GROW");
            assertThat(ui.err()).as(ui.describe()).contains("No terminal")
                    .contains("kubectl stsresize apply -f " + manifest + " --kubeconfig " + kubeconfig + " -A");
            assertThat(ui.code()).as(ui.describe()).isEqualTo(plan.code());
        }
    }

    @Test
    void anUnreachableClusterIsAOneLineErrorBeforeAnyScreen(@TempDir Path dir) throws Exception {
        Path kubeconfig = dir.resolve("kubeconfig");
        Files.writeString(kubeconfig, """
                apiVersion: v1
                kind: Config
                clusters: [{name: c, cluster: {server: "http://127.0.0.1:9"}}]
                users: [{name: u, user: {}}]
                contexts: [{name: x, context: {cluster: c, user: u}}]
                current-context: x
                """);
        Run r = PlanCommandTest.run("ui", "--kubeconfig", kubeconfig.toString(), "-f", MANIFEST, "--request-timeout", "5s");
        assertThat(r.code()).as(r.describe()).isEqualTo(ExitCodes.FAILED);
        assertThat(r.err()).as(r.describe()).startsWith("error: ").doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void theHeaderNamesTheContextOfTheConnection() {
        assertThat(UiCommand.context("context \"kind-dev\" of /home/me/.kube/config")).isEqualTo("kind-dev");
        assertThat(UiCommand.context("cluster \"c\" of /k")).isEqualTo("cluster \"c\" of /k");
    }
}
