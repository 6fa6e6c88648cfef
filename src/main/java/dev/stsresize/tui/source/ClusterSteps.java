package dev.stsresize.tui.source;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.converge.ChecklistRow;
import dev.stsresize.converge.Checkpoint;
import dev.stsresize.converge.ConvergeOptions;
import dev.stsresize.converge.Convergence;
import dev.stsresize.converge.Converger;
import dev.stsresize.converge.GateAnswers;
import dev.stsresize.converge.Journal;
import dev.stsresize.converge.OpenRuns;
import dev.stsresize.converge.PendingRun;
import dev.stsresize.converge.Phase;
import dev.stsresize.converge.ReadBack;
import dev.stsresize.converge.Recheck;
import dev.stsresize.converge.Revert;
import dev.stsresize.converge.RunRecords;
import dev.stsresize.converge.StatefulSetResult;
import dev.stsresize.converge.Steps;
import dev.stsresize.converge.StopRequest;
import dev.stsresize.converge.Verification;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Verdict;
import dev.stsresize.tui.ClaimProgress;
import dev.stsresize.tui.Loaded;
import dev.stsresize.tui.StepRunner;
import dev.stsresize.tui.Summary;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The wizard's checklist rows run on the converge's one state machine ({@link Convergence}), the one {@code apply}
 * drives. A row's gate is passed (the wizard asked for it first: {@code y}, the typed name), then the machine advances
 * while it stands in a phase shown in that row; the row closes on what the machine said it did, the last on the
 * run read back from the objects. Everything else is the converge's: whether a run may start ({@link Recheck}), what
 * the objects say ({@link ReadBack}, {@link Verification}), the revert ({@link Revert#confirmed}), resume and the pod
 * restarts ({@link Converger}), and what leaving or closing a run means ({@link OpenRuns}).
 *
 * <p>No thread of its own: the terminal edge calls {@link #run} on its step thread and the other methods on its UI thread.
 */
public final class ClusterSteps implements StepRunner {
    private final Cluster cluster;
    private final Function<Decision, ObjectNode> declared;
    private final ConvergeOptions options;
    private final StopRequest stop;
    // the converge's Progress (StepRunner's, a member of this class's interface, shadows an import of it)
    private final Function<dev.stsresize.converge.Progress, Steps> steps;
    private final Function<dev.stsresize.converge.Progress, Function<GateAnswers, Converger>> converger;
    private final ReadBack readBack;
    private final RunRecords records;
    private final Revert revert;
    private final OpenRuns<WizardRun> runs = new OpenRuns<>(r -> r.machine);

    /**
     * @param declared the manifest's object for a decision (the last one the decision source read)
     * @param options the converge's options (the wizard writes: no dry run; it waits for capacity unless told to go on)
     * @param stop set by the terminal edge on a signal: every run stops at its next safe point, its record kept
     */
    public ClusterSteps(Cluster cluster, Clock clock, Journal journal, String operator, String server,
            Function<Decision, ObjectNode> declared, ConvergeOptions options, Checkpoint checkpoint, StopRequest stop) {
        this.cluster = cluster;
        this.declared = declared;
        this.options = options.withWaitForResize(true).withDryRun(false);
        this.stop = stop;
        this.steps = p -> new Steps(cluster, clock, journal, operator, server, p, checkpoint, stop);
        this.converger = p -> gate -> new Converger(cluster, clock, journal, operator, server, gate, p, checkpoint, stop);
        this.readBack = new ReadBack(cluster);
        this.records = new RunRecords(cluster, journal, server);
        this.revert = new Revert(cluster, journal, clock);
    }

    @Override
    public Outcome run(Phase row, Decision decision, String uid, StepRunner.Progress progress) {
        if (row == Phase.CHECK) {
            return check(decision, uid, progress);
        }
        if (row == Phase.RESUME) {
            return resume(decision, progress);
        }
        if (row == Phase.REVERT) {
            Revert.Answered a = revert.confirmed(decision.namespace(), decision.name(), c -> progress.report("claim " + c.claim() + ": "
                    + c.said(), "", false));
            if (a.sent()) {
                progress.claims(claims(decision));
            }
            return new Outcome(a.done(), a.said());
        }
        WizardRun r = runs.get(Loaded.key(decision));
        if (r == null) {
            return Outcome.failed("no check ran for " + Loaded.key(decision) + " in this wizard: leave it and open it again");
        }
        r.reportTo(progress);
        try {
            return row == Phase.RESTART ? restart(r, progress) : advanceRow(r, row, uid, progress);
        } finally {
            r.reportTo(null);
        }
    }

    /** The StatefulSet assessed again; a machine is started only when it would make the writes the list showed. */
    private Outcome check(Decision decision, String uid, StepRunner.Progress progress) {
        ObjectNode object = declared.apply(decision);
        if (object == null) {
            return Outcome.failed(Loaded.key(decision) + " is no longer in the manifest: refresh the list (r)");
        }
        ConvergeOptions runOptions = Recheck.optionsFor(decision, options);
        Recheck.Checked c = Recheck.again(cluster, object, decision, uid, runOptions, e -> WizardRun.report(progress, e));
        if (!c.proceeds()) {
            return Outcome.failed(c.problem());
        }
        WizardRun r = new WizardRun(c.assessed(), c.uid(), p -> Convergence.start(steps.apply(p), c.assessed(), runOptions, c.leases()),
                () -> claims(c.assessed().decision()));
        if (r.machine.finished() instanceof Convergence.Turn.Ended) {
            return Outcome.failed(r.machine.view().ending());
        }
        runs.open(Loaded.key(decision), r);
        progress.claims(claims(c.assessed().decision()));
        return Outcome.done(c.accepted(runOptions));
    }

    /** The row run on the machine ({@link ChecklistRow}); the last row closes on the run read back from the objects. */
    private Outcome advanceRow(WizardRun r, Phase row, String uid, StepRunner.Progress progress) {
        ChecklistRow.Closed closed = ChecklistRow.run(r.machine, row, uid, said -> progress.report(said, "", false));
        if (closed.ran()) {
            progress.claims(claims(r.assessed.decision()));
        }
        if (closed.toVerify() == null) {
            return new Outcome(closed.ok(), closed.said());
        }
        Verification verified = readBack.verification(r.assessedUid, r.restarted, closed.toVerify());
        progress.summary(Summary.of(verified));
        return new Outcome(verified.verified(), verified.sentence(r.assessed.decision().verdict() == Verdict.COPY));
    }

    /** After the run: the pods the end screen showed waiting for their file systems, restarted; the end screen read again. */
    private Outcome restart(WizardRun r, StepRunner.Progress progress) {
        StatefulSetResult ended = r.machine.finished() == null ? null : r.machine.finished().result();
        if (ended != null) {
            readBack.verification(r.assessedUid, r.restarted, ended).claims().stream().filter(Verification.Claim::restartable)
                    .forEach(c -> r.restarted.add(c.pod()));
        }
        String problem = converger.apply(r).apply(GateAnswers.growing(false)).restartPodsForResize(r.assessed.decision(), options);
        if (ended != null) {
            progress.summary(Summary.of(readBack.verification(r.assessedUid, r.restarted, ended)));
        }
        progress.claims(claims(r.assessed.decision()));
        return problem.isEmpty() ? Outcome.done("each pod Ready again and its claim at capacity") : Outcome.failed(problem);
    }

    /** An interrupted run finished as a re-run of {@code apply -f} finishes it, from its record and the manifest the UI read. */
    private Outcome resume(Decision decision, StepRunner.Progress progress) {
        Optional<PendingRun> found = records.find(decision.namespace(), decision.name(), true);
        if (found.isEmpty() || !found.get().trusted()) {
            return Outcome.failed(found.isPresent() ? found.get().leftAlone() : "no interrupted run of " + Loaded.key(decision)
                    + " is recorded any more: it was finished meanwhile; refresh (r)");
        }
        ObjectNode object = declared.apply(decision);
        if (object == null) {
            return Outcome.failed("the manifest no longer declares " + Loaded.key(decision) + ": nothing was written; reload it (r)");
        }
        StatefulSetResult r = converger.apply((dev.stsresize.converge.ProgressEvent e) -> WizardRun.report(progress, e)).apply(GateAnswers.resuming(found.get()))
                .resume(found.get(), object, options, true);
        Verification verified = readBack.verification(found.get().record().uid(), Set.of(), r);
        progress.summary(Summary.of(verified));
        return verified.verified() ? Outcome.done("finished from the record: " + r.detail())
                : Outcome.failed(String.join("; ", verified.problems()));
    }

    @Override
    public List<ClaimProgress> claims(Decision decision) {
        // a claim that cannot be read is left out: the table keeps the rest
        List<ClaimProgress> all = new java.util.ArrayList<>(ClaimProgress.of(readBack.claims(decision)));
        all.addAll(ClaimProgress.ofCopies(readBack.copies(decision)));
        return all;
    }

    @Override
    public void goOn(Decision decision) {
        runs.machine(Loaded.key(decision)).ifPresent(Convergence::goOn);
    }

    /** The operator is leaving: a wait running now ends at once, so that {@link #abandon} runs next. */
    @Override
    public void leaving(Decision decision) {
        runs.machine(Loaded.key(decision)).ifPresent(Convergence::leaving);
    }

    /** The operator left the wizard: a run before its delete is released with nothing deleted; one past it is finished. */
    @Override
    public void abandon(Decision decision) {
        runs.leave(Loaded.key(decision));
    }

    /** Every run still open left: released before its delete, finished past it, a copy stopped at its next safe point. */
    @Override
    public void close() {
        runs.close(stop);
    }

    /** The wizard's open runs: what closing finishes first or stops, and where each stands once closed. */
    public OpenRuns<?> runs() {
        return runs;
    }

    /** How the run of {@code decision} in this wizard ended (null while it goes on, or when no run started). */
    public Convergence.Turn finished(Decision decision) {
        return runs.machine(Loaded.key(decision)).map(Convergence::finished).orElse(null);
    }
}
