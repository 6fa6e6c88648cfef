package dev.stsresize.tui;

import java.util.List;

/** The result of {@link Update#apply}: the next state and the effects to run, in order. */
public record Transition(UiState state, List<Effect> effects) {
    public Transition {
        effects = List.copyOf(effects);
    }

    static Transition of(UiState state, Effect... effects) {
        return new Transition(state, List.of(effects));
    }
}
