package dev.stsresize.tui.source;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.converge.ConvergeOptions;
import dev.stsresize.converge.Converger;
import dev.stsresize.converge.GateAnswers;
import dev.stsresize.converge.PendingRun;
import dev.stsresize.converge.Progress;
import dev.stsresize.converge.ProgressEvent;
import dev.stsresize.converge.RunRecords;
import dev.stsresize.converge.StatefulSetResult;
import dev.stsresize.plan.Decision;
import dev.stsresize.tui.Loaded;
import dev.stsresize.tui.StepRunner.Outcome;
import dev.stsresize.tui.Summary;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The wizard's steps that are the CLI's driver's ({@link Converger}), outside a run of the wizard's own:
 * RESTART, the pods whose file systems wait evicted one at a time as {@code --restart-pods-for-resize} does,
 * and RESUME, a stopped run finished as a re-run of {@code apply -f} finishes it.
 */
final class ConvergerSteps {
    private final BiFunction<Progress, GateAnswers, Converger> converger;
    private final RunRecords records;
    private final ReadBack readBack;
    private final Function<Decision, ObjectNode> declared;
    private final ConvergeOptions options;

    ConvergerSteps(BiFunction<Progress, GateAnswers, Converger> converger, RunRecords records, ReadBack readBack,
            Function<Decision, ObjectNode> declared, ConvergeOptions options) {
        this.converger = converger;
        this.records = records;
        this.readBack = readBack;
        this.declared = declared;
        this.options = options;
    }

    /** After the run: the pods the end screen showed waiting for their file systems, restarted; the end screen read again. */
    Outcome restart(WizardRun r, dev.stsresize.tui.StepRunner.Progress progress) {
        StatefulSetResult ended = r.machine.finished() == null ? null : r.machine.finished().result();
        if (ended != null) {
            for (Summary.ClaimCheck c : readBack.summary(r.assessedUid(), r.restarted, ended).restartable()) {
                r.restarted.add(c.pod());
            }
        }
        String problem = converger.apply(r, GateAnswers.growing(false)).restartPodsForResize(r.assessed.namespace(), r.assessed.name(),
                r.claimTargets(), options);
        if (ended != null) {
            progress.summary(readBack.summary(r.assessedUid(), r.restarted, ended));
        }
        progress.claims(readBack.claims(r.assessed.decision()));
        return problem.isEmpty() ? Outcome.done("each pod Ready again and its claim at capacity") : Outcome.failed(problem);
    }

    /**
     * Finishes an interrupted run as a re-run of {@code apply -f} does: the record says where it
     * stopped (and is left alone when it cannot be trusted), the object re-applied is built from the
     * manifest the UI was opened with, and the gates are the record's ({@link Gate#resuming}).
     */
    Outcome resume(Decision decision, dev.stsresize.tui.StepRunner.Progress progress) {
        Optional<PendingRun> found = records.find(decision.namespace(), decision.name(), true);
        if (found.isEmpty()) {
            return Outcome.failed("no interrupted run of " + Loaded.key(decision) + " is recorded any more: it was finished"
                    + " meanwhile; refresh (r)");
        }
        if (!found.get().trusted()) {
            return Outcome.failed(found.get().leftAlone());
        }
        ObjectNode object = declared.apply(decision);
        if (object == null) {
            return Outcome.failed("the manifest no longer declares " + Loaded.key(decision) + ": nothing was written; reload it (r)");
        }
        StatefulSetResult r = converger.apply((ProgressEvent e) -> WizardRun.report(progress, e), GateAnswers.resuming(found.get()))
                .resume(found.get(), object, options, true);
        Summary summary = readBack.summary(found.get().record().uid(), Set.of(), r);
        progress.summary(summary);
        boolean ok = summary.converged() && summary.problems().isEmpty();
        return ok ? Outcome.done("finished from the record: " + r.detail()) : Outcome.failed(String.join("; ", summary.problems()));
    }
}
