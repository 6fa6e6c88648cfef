package dev.stsresize.converge;

/**
 * What the operator must do before a phase may start: nothing, confirm (the CLI's {@code y} at its
 * prompt, the wizard's {@code y}), or type the StatefulSet's name (the CLI's prompt, the wizard's name
 * gate). The one gate type of the procedure, closed as an enum is: {@link Phase#gate()} names it,
 * {@link Convergence.Turn.AtGate} stops at it, and each front end answers it in its own words
 * ({@link GateAnswers} for the CLI, the wizard's keys in {@code tui.Update}).
 */
public enum Gate {
    /** No gate: the phase starts when the run reaches it. */
    NONE("no"),
    /** A yes before the first write. */
    CONFIRM("grow"),
    /** The StatefulSet's name typed before the orphan delete. */
    TYPE_NAME("orphan delete");

    private final String words;

    Gate(String words) {
        this.words = words;
    }

    /** Whether the operator has something to do here. */
    public boolean asks() {
        return this != NONE;
    }

    /** The gate's name in messages ("the grow gate has not been passed"). */
    public String words() {
        return words;
    }
}
