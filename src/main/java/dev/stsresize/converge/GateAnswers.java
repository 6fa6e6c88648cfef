package dev.stsresize.converge;

import dev.stsresize.plan.Decision;

/**
 * How a driver without a screen answers the {@link Gate}s: before the first write ({@link Gate#CONFIRM}),
 * and before the orphan delete ({@link Gate#TYPE_NAME}). The CLI answers with prompts (or {@code --yes});
 * a "no" stops the converge of that StatefulSet with nothing more written.
 */
public interface GateAnswers {
    /** Before growing the claims of {@code decision} (the first write). */
    boolean allowGrow(Decision decision);

    /** Before the orphan delete of {@code namespace/name}: the CLI asks the operator to type the name. */
    boolean allowOrphanDelete(String namespace, String name);

    /**
     * Before a copy migration's first orphan delete, for the whole copy: each pod down in turn. The CLI states the downtime
     * and asks for the name; by default the orphan delete's own answer.
     */
    default boolean allowCopy(Decision decision) {
        return allowOrphanDelete(decision.namespace(), decision.name());
    }

    /** Every write allowed, as {@code --yes} says. */
    GateAnswers YES = growing(true);

    /**
     * Allows the grow, and the orphan delete only when {@code orphanDelete}: a resume whose delete gate
     * was already passed (or {@code --yes}) needs no second question.
     */
    static GateAnswers growing(boolean orphanDelete) {
        return new GateAnswers() {
            @Override
            public boolean allowGrow(Decision decision) {
                return true;
            }

            @Override
            public boolean allowOrphanDelete(String namespace, String name) {
                return orphanDelete;
            }
        };
    }

    /**
     * The gates of a stopped run taken up again: the grow allowed (the operator allowed it when the run
     * began), the orphan delete only when the record shows it was already allowed (phase deleting or later);
     * a run stopped before it is finished up to the delete gate, which then says no.
     */
    static GateAnswers resuming(PendingRun run) {
        return growing(run.pastTheDeleteGate());
    }
}
