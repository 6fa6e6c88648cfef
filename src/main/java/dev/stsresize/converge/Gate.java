package dev.stsresize.converge;

import dev.stsresize.plan.Decision;

/**
 * The decisions a human makes: before the first write, and before the orphan delete. The CLI answers
 * with prompts (or {@code --yes}); a "no" stops the converge of that StatefulSet with nothing more written.
 */
public interface Gate {
    /** Before growing the claims of {@code decision} (the first write). */
    boolean allowGrow(Decision decision);

    /** Before the orphan delete of {@code namespace/name}: the CLI asks the operator to type the name. */
    boolean allowOrphanDelete(String namespace, String name);

    /** Every write allowed, as {@code --yes} says. */
    Gate YES = growing(true);

    /**
     * Allows the grow, and the orphan delete only when {@code orphanDelete}: a resume whose delete gate
     * was already passed (or {@code --yes}) needs no second question.
     */
    static Gate growing(boolean orphanDelete) {
        return new Gate() {
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
    static Gate resuming(PendingRun run) {
        return growing(run.pastTheDeleteGate());
    }
}
