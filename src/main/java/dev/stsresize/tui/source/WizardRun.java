package dev.stsresize.tui.source;

import dev.stsresize.converge.Assessed;
import dev.stsresize.converge.Convergence;
import dev.stsresize.converge.Progress;
import dev.stsresize.converge.ProgressEvent;
import dev.stsresize.converge.WaitTick;
import dev.stsresize.plan.ClaimState;
import dev.stsresize.plan.Metadata;
import dev.stsresize.tui.StepRunner;
import dev.stsresize.tui.WaitStatus;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * One wizard's run: the converge's machine for one StatefulSet, and where its steps report while one
 * runs. The machine's progress goes to the wizard step that advances it ({@link #current}); between
 * steps (a wait's tick after the step ended) it goes nowhere.
 */
final class WizardRun implements Progress {
    final Assessed assessed;
    final Convergence machine;
    /** Pods the wizard restarted for their file systems: their new UIDs are the point, not a loss. */
    final Set<String> restarted = ConcurrentHashMap.newKeySet();
    private volatile StepRunner.Progress current;

    /** @param start starts the machine with this run as its progress */
    WizardRun(Assessed assessed, Function<Progress, Convergence> start) {
        this.assessed = assessed;
        this.machine = start.apply(this);
    }

    /** The wizard step now advancing the machine reports to {@code p} (null: none). */
    void reportTo(StepRunner.Progress p) {
        current = p;
    }

    String key() {
        return Metadata.key(assessed.namespace(), assessed.name());
    }

    /** Each claim the decision grows, with its target: what a restart for the file systems waits for. */
    Map<String, String> claimTargets() {
        Map<String, String> targets = new LinkedHashMap<>();
        for (ClaimState c : assessed.decision().claimsToGrow()) {
            targets.put(c.name(), c.target().toString());
        }
        return targets;
    }

    /** The StatefulSet's UID when it was assessed. */
    String assessedUid() {
        return ReadBack.uid(assessed.live());
    }

    @Override
    public void on(ProgressEvent e) {
        StepRunner.Progress p = current;
        if (p != null) {
            report(p, e);
        }
    }

    @Override
    public void waiting(WaitTick tick) {
        StepRunner.Progress p = current;
        if (p == null) {
            return;
        }
        if (!tick.claims().isEmpty()) {
            p.claims(tick.claims().stream().map(ReadBack::progressOf).toList());
        }
        p.waiting(new WaitStatus(tick.what(), tick.elapsed(), tick.left()));
    }

    /**
     * A converge event in the wizard's words; the outcome is left to the end screen, which reads it back, or, for a
     * run that failed, to the step's failure, which says the result's paragraph (once: not here as well).
     */
    static void report(StepRunner.Progress progress, ProgressEvent e) {
        if (e.isOutcome()) {
            return;
        }
        progress.report(e.message(), e.kubectl(), e.warning());
    }
}
