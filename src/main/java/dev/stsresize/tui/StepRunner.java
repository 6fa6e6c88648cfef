package dev.stsresize.tui;

import dev.stsresize.converge.Phase;
import dev.stsresize.plan.Decision;

/**
 * What runs the wizard's steps against a cluster: the Converger, adapted. The UI's gates are passed
 * before {@link #run} is called for a gated step (GROW after "y", ORPHAN_DELETE after the typed name),
 * so an implementation never asks the operator anything itself.
 *
 * <p>The contract: {@code run} is called on a background thread, one step at a time, in the order of
 * {@link Phase#checklist}; it reports what it does through {@code progress} (as many times as it
 * likes, kubectl equivalents of writes included) and returns how the step ended. It may block (a wait
 * for capacity) until {@link #goOn} or {@link #leaving} ends the wait. An exception is reported as the
 * step failing with the exception's message.
 */
public interface StepRunner {
    /** Where a running step reports. */
    @FunctionalInterface
    interface Progress {
        void report(String message, String kubectl, boolean warning);

        /** The claims as just read: request, capacity, target and conditions, for the live progress toward capacity. */
        default void claims(java.util.List<ClaimProgress> claims) {}

        /** What the converge verified, read back from the objects (the VERIFY and RESTART steps). */
        default void summary(Summary summary) {}

        /** A wait of the step goes on (at least every ten seconds while it lasts). */
        default void waiting(WaitStatus wait) {}
    }

    /** How a step ended: {@code message} says what was verified, or why it failed. */
    record Outcome(boolean ok, String message) {
        public static Outcome done(String message) {
            return new Outcome(true, message);
        }

        public static Outcome failed(String message) {
            return new Outcome(false, message);
        }
    }

    Outcome run(Phase step, Decision decision, String uid, Progress progress) throws InterruptedException;

    /** The claims {@code decision} grows, read now (none where they cannot be read): the wizard's table between steps. */
    default java.util.List<ClaimProgress> claims(Decision decision) {
        return java.util.List.of();
    }

    /**
     * The operator is leaving the wizard: a wait running now ends at once (called on the UI thread; it
     * must not block), so that {@link #abandon}, queued behind the running step, comes next.
     */
    default void leaving(Decision decision) {}

    /** The operator left the wizard: release what is held (a Lease), finishing a run past its orphan delete. */
    default void abandon(Decision decision) {}

    /** The operator chose not to wait for capacity: the running WAIT step ends now, the resize goes on meanwhile. */
    default void goOn(Decision decision) {}

    /** The UI closed: refuse every gate still waiting and release what is held, before the process exits. */
    default void close() {}

    /** For the offline UI: every step fails, saying that converging needs a cluster. */
    StepRunner OFFLINE = (step, decision, uid, progress) -> Outcome.failed(
            "offline: this UI reads a captured snapshot (--live) and writes nothing; converge with kubectl stsresize apply -f MANIFEST");
}
