package dev.stsresize.tui;

import dev.stsresize.converge.Phase;
import static dev.stsresize.tui.ViewsGoldenTest.done;
import static dev.stsresize.tui.ViewsGoldenTest.press;
import static dev.stsresize.tui.ViewsGoldenTest.select;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Ctrl-L asks for the whole screen again wherever it is pressed, and changes nothing else: not a filter, not the name typed at the delete gate. */
class RedrawKeyTest {
    private static final UiEvent CTRL_L = new UiEvent.Pressed(Key.of(Key.Kind.CTRL_L));

    @Test
    void ctrlLRedrawsAndChangesNothingInTheListTheFilterOrAtTheNameGate() {
        String pg = "shop/postgres";
        UiState list = DemoDecisions.state(80, 24);
        UiState filtering = press(list, "/", "sho");
        UiState gate = press(select(list, "postgres"), "a", done(pg, Phase.CHECK, "checked"), "y", done(pg, Phase.GROW, "grown"),
                done(pg, Phase.WAIT, "capacity reached"), "postg");
        for (UiState s : List.of(list, filtering, gate)) {
            Transition t = Update.apply(s, CTRL_L);
            assertThat(t.effects()).containsExactly(new Effect.Redraw());
            assertThat(t.state()).isEqualTo(s);
        }
        assertThat(gate.wizard().typed()).isEqualTo("postg");
    }
}
