package dev.stsresize.tui;

import dev.stsresize.converge.Phase;
import dev.stsresize.converge.Gate;
import static dev.stsresize.tui.ViewsGoldenTest.COLOUR;
import static dev.stsresize.tui.ViewsGoldenTest.done;
import static dev.stsresize.tui.ViewsGoldenTest.press;
import static dev.stsresize.tui.ViewsGoldenTest.select;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.tui.Key.Kind;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The name gate may wait for minutes while the kubelet grows the file systems: the claim table is read again while it
 * is open, so it never says "file system pending" for claims that have grown since.
 */
class NameGateClaimsTest {
    private static final String PG = "shop/postgres";

    private static List<ClaimProgress> claims(String capacity, ClaimProgress.State state) {
        return List.of("data-postgres-0", "data-postgres-1", "data-postgres-2").stream().map(n -> new ClaimProgress(n, "20Gi", capacity,
                "20Gi", state == ClaimProgress.State.FILE_SYSTEM_PENDING ? List.of("FileSystemResizePending") : List.of(), state, "", ""))
                .toList();
    }

    private static boolean readsClaims(Transition t) {
        return t.effects().stream().anyMatch(e -> e instanceof Effect.ReadClaims r && r.decision().name().equals("postgres"));
    }

    @Test
    void the_claims_are_read_again_while_the_name_gate_is_open_and_the_table_shows_the_last_reading() {
        UiState waiting = press(select(DemoDecisions.state(120, 40), "postgres"), "a", done(PG, Phase.CHECK, "checked"), "y",
                done(PG, Phase.GROW, "grown"));
        waiting = Update.apply(waiting, new UiEvent.ClaimsRead(PG, claims("10Gi", ClaimProgress.State.FILE_SYSTEM_PENDING))).state();
        Transition opened = Update.apply(waiting, done(PG, Phase.WAIT, "every volume grew"));
        assertThat(opened.state().wizard().gate()).isEqualTo(Gate.TYPE_NAME);
        assertThat(readsClaims(opened)).as("the gate opens: the claims are read again").isTrue();

        Transition read = Update.apply(opened.state(), new UiEvent.ClaimsRead(PG, claims("20Gi", ClaimProgress.State.GROWN)));
        assertThat(readsClaims(read)).as("while it stays open, again after each reading").isTrue();
        String screen = VirtualScreen.draw(read.state(), COLOUR, Glyphs.UNICODE).text();
        assertThat(screen).as(screen).contains("data-postgres-0  20Gi     20Gi      20Gi    ✓ grown").doesNotContain("file system pending");

        UiState typed = press(read.state(), "postgres", Kind.ENTER);
        assertThat(typed.wizard().gate()).isNotEqualTo(Gate.TYPE_NAME);
        assertThat(readsClaims(Update.apply(typed, new UiEvent.ClaimsRead(PG, claims("20Gi", ClaimProgress.State.GROWN)))))
                .as("the gate closed: no more readings scheduled").isFalse();
    }
}
