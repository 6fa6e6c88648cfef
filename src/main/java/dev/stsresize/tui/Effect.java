package dev.stsresize.tui;

import dev.stsresize.converge.Phase;
import dev.stsresize.plan.Decision;

/** The I/O {@link Update} asks for; the {@link EffectRunner} performs it and posts the result back as a {@link UiEvent}. */
public sealed interface Effect {
    /** Read the manifest and the live state again and decide; answers DecisionsLoaded (maybe with rows unproved) or LoadFailed. */
    record LoadDecisions() implements Effect {}

    /** Ask the server for the proofs of the last load's unproved rows; answers DecisionsProved or LoadFailed. */
    record ProveDecisions() implements Effect {}

    /** Decide {@code decision} (a refusal a copy could answer) again with the opt-in to the copy; answers CopyDecided or CopyRefused. */
    record DecideCopy(Decision decision) implements Effect {}

    /** Run one wizard step for {@code decision}; answers StepProgress events, then one StepFinished. */
    record RunStep(Phase step, Decision decision, String uid) implements Effect {}

    /** The user left the wizard before anything irreversible: stop a running read or wait, release what the runner holds. */
    record CancelSteps(Decision decision) implements Effect {}

    /** Stop waiting for capacity: the WAIT step ends, the resizer keeps working (apply --wait-for-resize=false). */
    record GoOn(Decision decision) implements Effect {}

    /** Leave: stop the screen and restore the terminal. */
    record Quit() implements Effect {}

    /** Draw every cell again, not only those that changed: the terminal's contents are not what the UI last drew (Ctrl-L). */
    record Redraw() implements Effect {}

    /** Read each file and change the sizes in memory (nothing written); answers EditPrepared or EditRefused. */
    record PrepareEdit(java.util.List<SizeEdit.Change> changes) implements Effect {}

    /** Write the files as reviewed, each only if it still holds what its diff was made from; answers EditWritten or EditRefused. */
    record WriteEdit(java.util.List<SizeEdit.FileChange> files) implements Effect {}

    /** Read the wizard's claims again, {@code after} from now, while it waits at the name gate; answers ClaimsRead. */
    record ReadClaims(Decision decision, java.time.Duration after) implements Effect {}

    /** Read how full the claims are, {@code after} from now (the UI's timer); answers UsageRead. */
    record ReadUsage(java.time.Duration after) implements Effect {}
}
