package dev.stsresize.tui.source;

import dev.stsresize.converge.Assessed;
import dev.stsresize.converge.Convergence;
import dev.stsresize.converge.Progress;
import dev.stsresize.converge.ProgressEvent;
import dev.stsresize.converge.WaitTick;
import dev.stsresize.tui.ClaimProgress;
import dev.stsresize.tui.StepRunner;
import dev.stsresize.tui.WaitStatus;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One wizard's run: the converge's machine for one StatefulSet, and where it reports while a wizard step advances it
 * ({@link #reportTo}); between steps (a wait's tick after the step ended) it reports nowhere.
 */
final class WizardRun implements Progress {
    final Assessed assessed;
    final String assessedUid;
    final Convergence machine;
    /** Pods the wizard restarted for their file systems: their new UIDs are the point, not a loss. */
    final Set<String> restarted = ConcurrentHashMap.newKeySet();
    private volatile StepRunner.Progress current;
    /** The claims read now, for a copy's table; null for a grow, whose waits bring their own readings. */
    private final Supplier<List<ClaimProgress>> copiedClaims;

    /**
     * @param start starts the machine with this run as its progress
     * @param claims the run's claims read now
     */
    WizardRun(Assessed assessed, String assessedUid, Function<Progress, Convergence> start, Supplier<List<ClaimProgress>> claims) {
        this.assessed = assessed;
        this.assessedUid = assessedUid;
        this.copiedClaims = assessed.decision().claimsToCopy().isEmpty() ? null : claims;
        this.machine = start.apply(this);
    }

    /** The wizard step now advancing the machine reports to {@code p} (null: none). */
    void reportTo(StepRunner.Progress p) {
        current = p;
    }

    @Override
    public void on(ProgressEvent e) {
        StepRunner.Progress p = current;
        if (p != null) {
            report(p, e);
            // a copy's row runs pod after pod, and its claims move only when it writes (a copy pod, a claim deleted or
            // created again, the StatefulSet re-applied): they are read again after each write, so the table moves with them
            if (copiedClaims != null && e.write() != null) {
                p.claims(copiedClaims.get());
            }
        }
    }

    @Override
    public void waiting(WaitTick tick) {
        StepRunner.Progress p = current;
        if (p != null) {
            if (!tick.claims().isEmpty()) {
                p.claims(ClaimProgress.of(tick.claims()));
            }
            p.waiting(new WaitStatus(tick.what(), tick.elapsed(), tick.left()));
        }
    }

    /**
     * A converge event in the wizard's words; the outcome is left to the end screen, which reads it back, or, for a
     * run that failed, to the step's failure, which says the result's paragraph (once: not here as well).
     */
    static void report(StepRunner.Progress progress, ProgressEvent e) {
        if (!e.isOutcome()) {
            progress.report(e.message(), e.kubectl(), e.warning());
        }
    }
}
