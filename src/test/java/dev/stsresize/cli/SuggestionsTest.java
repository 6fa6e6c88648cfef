package dev.stsresize.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SuggestionsTest {
    private static final List<String> COMMANDS = List.of("plan", "apply", "resume", "simulate", "demo", "render-job",
            "version", "completion", "ui");

    @Test
    void distanceCountsInsertionsDeletionsSubstitutionsAndSwaps() {
        assertThat(Suggestions.distance("plan", "plan")).isZero();
        assertThat(Suggestions.distance("paln", "plan")).as("one swap").isEqualTo(1);
        assertThat(Suggestions.distance("aply", "apply")).as("one insertion").isEqualTo(1);
        assertThat(Suggestions.distance("planx", "plan")).as("one deletion").isEqualTo(1);
        assertThat(Suggestions.distance("plon", "plan")).as("one substitution").isEqualTo(1);
        assertThat(Suggestions.distance("", "ui")).isEqualTo(2);
        assertThat(Suggestions.distance("kitten", "sitting")).isEqualTo(3);
    }

    @Test
    void suggestsTheNearestFirstAndPrefixesLast() {
        assertThat(Suggestions.near("paln", COMMANDS)).containsExactly("plan");
        assertThat(Suggestions.near("rendr-job", COMMANDS)).containsExactly("render-job");
        assertThat(Suggestions.near("comp", COMMANDS)).containsExactly("completion");
        assertThat(Suggestions.near("xyzzy", COMMANDS)).isEmpty();
        assertThat(Suggestions.near("u", COMMANDS)).as("one letter is too short to be a prefix").containsExactly("ui");
    }

    @Test
    void aMistypedCommandIsNamedWithTheNearestOne() {
        PlanCommandTest.Run r = run("paln", "-f", "x.yaml");
        assertThat(r.code()).isEqualTo(ExitCodes.FAILED);
        assertThat(r.err()).isEqualTo("error: unknown command \"paln\" for \"kubectl stsresize\"\n"
                + "Did you mean plan?\nSee 'kubectl stsresize --help'.\n");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void aMistypedFlagIsReportedBeforeTheRequiredOneItHid() {
        PlanCommandTest.Run r = run("plan", "--fliename", "x.yaml");
        assertThat(r.err()).isEqualTo("error: unknown flag: --fliename\nDid you mean --filename?\n"
                + "See 'kubectl stsresize plan --help'.\n");
        PlanCommandTest.Run eq = run("plan", "-f", "x.yaml", "--outptu=json");
        assertThat(eq.err()).startsWith("error: unknown flag: --outptu\nDid you mean --output?\n");
    }

    @Test
    void aStrayArgumentIsNamed() {
        PlanCommandTest.Run r = run("version", "extra");
        assertThat(r.err()).startsWith("error: unexpected argument \"extra\" for \"kubectl stsresize version\"\n");
    }

    private static PlanCommandTest.Run run(String... args) {
        return PlanCommandTest.run(args);
    }
}
