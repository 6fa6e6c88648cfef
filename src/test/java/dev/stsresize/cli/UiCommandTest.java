package dev.stsresize.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.cli.PlanCommandTest.Run;
import org.junit.jupiter.api.Test;

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
        assertThat(UiCommand.withImplicitUi(new String[] {})).isEmpty();
    }
}
