package dev.stsresize.tui;

import static dev.stsresize.tui.ViewsGoldenTest.COLOUR;
import static dev.stsresize.tui.ViewsGoldenTest.done;
import static dev.stsresize.tui.ViewsGoldenTest.press;
import static dev.stsresize.tui.ViewsGoldenTest.select;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.converge.Phase;
import org.junit.jupiter.api.Test;

/** After a resize that failed, the wizard offers the way back: v, a dialog that says what it does, y. */
class RevertKeyTest {
    private static final String PG = "shop/postgres";

    private static UiState grown() {
        return press(select(DemoDecisions.state(120, 40), "postgres"), "a", done(PG, Phase.CHECK, "checked"), "y", done(PG, Phase.GROW, "grown"));
    }

    private static boolean revertRuns(Transition t) {
        return t.effects().stream().anyMatch(e -> e instanceof Effect.RunStep r && r.step() == Phase.REVERT && r.decision().name().equals("postgres"));
    }

    @Test
    void after_a_failed_wait_v_asks_and_y_gives_the_requests_back() {
        UiState failed = Update.apply(grown(), new UiEvent.StepFinished(PG, Phase.WAIT, false,
                "the resizer failed to expand claim data-postgres-0 (VolumeResizeFailed): … kubectl stsresize revert shop/postgres")).state();
        assertThat(failed.wizard().revertOffered()).isTrue();
        String screen = VirtualScreen.draw(failed, COLOUR, Glyphs.UNICODE).text();
        assertThat(screen).as(screen).contains("<v> give the requests back (revert)")
                .contains("Nothing irreversible happened; v gives the requests back, Esc leaves.");

        Transition asked = Update.apply(failed, new UiEvent.Pressed(Key.ch('v')));
        assertThat(asked.state().dialog()).isInstanceOf(Dialog.Revert.class);
        assertThat(asked.state().dialog().message()).contains("kubectl stsresize revert shop/postgres").contains("claims that grew are left alone");
        assertThat(revertRuns(asked)).as("nothing runs before the yes").isFalse();

        Transition yes = Update.apply(asked.state(), new UiEvent.Pressed(Key.ch('y')));
        assertThat(revertRuns(yes)).isTrue();
        assertThat(yes.state().wizard().status(Phase.REVERT)).isEqualTo(StepStatus.RUNNING);
        assertThat(yes.state().wizard().revertOffered()).as("offered once").isFalse();

        Transition no = Update.apply(asked.state(), new UiEvent.Pressed(Key.ch('n')));
        assertThat(revertRuns(no)).isFalse();
        assertThat(no.state().dialog()).isNull();
    }

    /**
     * The real node's D5, D6, D7: after the failure the claim table says failed, not "resizing"; the revert dialog's
     * footer matches its y/n question; leaving says the requests were raised, not that the claims are grown.
     */
    @Test
    void after_a_failed_wait_the_claims_footer_and_the_leaving_words_say_what_happened() {
        ClaimProgress raised = new ClaimProgress("data-postgres-0", "20Gi", "10Gi", "20Gi", java.util.List.of("Resizing"),
                ClaimProgress.State.RESIZING, "capacity 10Gi has not reached 20Gi");
        UiState waiting = Update.apply(grown(), new UiEvent.ClaimsRead(PG, java.util.List.of(raised))).state();
        assertThat(VirtualScreen.draw(waiting, COLOUR, Glyphs.UNICODE).text()).as("control: while it waits").contains("resizing");
        UiState failed = Update.apply(waiting, new UiEvent.StepFinished(PG, Phase.WAIT, false,
                "the resizer failed 5 times to expand claim data-postgres-0 (VolumeResizeFailed): …")).state();
        String screen = VirtualScreen.draw(failed, COLOUR, Glyphs.UNICODE).text();
        assertThat(screen).as(screen).contains("✗ resize failed").doesNotContain("▶ resizing");

        UiState asked = Update.apply(failed, new UiEvent.Pressed(Key.ch('v'))).state();
        assertThat(KeyHints.of(asked)).startsWith("<y> revert  <n/esc> close").doesNotContain("<any key>");

        UiState left = Update.apply(failed, new UiEvent.Pressed(Key.of(Key.Kind.ESCAPE))).state();
        assertThat(left.flash().text()).contains("requests were raised but their resize failed", "kubectl stsresize revert shop/postgres")
                .doesNotContain("claims are grown");
    }

    /** Control: a wait that ended well offers no way back, and v does nothing. */
    @Test
    void after_a_wait_that_ended_well_v_does_nothing() {
        UiState waited = Update.apply(grown(), done(PG, Phase.WAIT, "every volume grew")).state();
        assertThat(waited.wizard().revertOffered()).isFalse();
        Transition v = Update.apply(waited, new UiEvent.Pressed(Key.ch('v')));
        assertThat(v.state().dialog()).isNull();
        assertThat(revertRuns(v)).isFalse();
    }
}
