package dev.stsresize.tui.source;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.converge.Assessed;
import dev.stsresize.converge.Assessment;
import dev.stsresize.converge.Assessor;
import dev.stsresize.converge.Checkpoint;
import dev.stsresize.converge.ConvergeOptions;
import dev.stsresize.converge.Convergence;
import dev.stsresize.converge.Converger;
import dev.stsresize.converge.Journal;
import dev.stsresize.converge.Revert;
import dev.stsresize.converge.RunRecords;
import dev.stsresize.converge.StatefulSetResult;
import dev.stsresize.converge.Steps;
import dev.stsresize.converge.StopRequest;
import dev.stsresize.plan.CopyOptIn;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Verdict;
import dev.stsresize.tui.ClaimProgress;
import dev.stsresize.tui.Loaded;
import dev.stsresize.tui.StepRunner;
import dev.stsresize.tui.Summary;
import dev.stsresize.converge.Phase;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * The wizard's steps as turns of the converge's one state machine ({@link Convergence}), the same one
 * {@code apply} drives: CHECK assesses the StatefulSet again and starts a machine; GROW answers the
 * grow gate (the wizard's {@code y}) and advances through the lock and the patches; WAIT advances
 * through the wait for capacity ({@link #goOn} ends it); ORPHAN_DELETE passes the operator's
 * allowance of this StatefulSet and UID (the typed name) and advances through the delete; REAPPLY and
 * VERIFY advance to the end, read back as a {@link Summary}. RESTART and RESUME are the Converger's ({@link ConvergerSteps}).
 *
 * <p>It decides nothing of its own: whether a run may start is {@link Recheck}'s, the run and what
 * leaving it means are the machine's ({@link Convergence#leave}), what the wizard shows is read back
 * from the objects ({@link ReadBack}); here each turn is only put in the wizard's words.
 *
 * <p>No thread of its own: the terminal edge calls {@link #run} on its step thread and the other
 * methods on its UI thread. Leaving answers the delete gate "no" (a run before the delete is released
 * with nothing deleted) and finishes one past it.
 */
public final class ClusterSteps implements StepRunner {
    private final Cluster cluster;
    private final Clock clock;
    private final Journal journal;
    private final String operator;
    private final String server;
    private final Function<Decision, ObjectNode> declared;
    private final ConvergeOptions options;
    private final Checkpoint checkpoint;
    private final StopRequest stop;
    private final ReadBack readBack;
    private final ConvergerSteps converger;
    private final Map<String, WizardRun> runs = new ConcurrentHashMap<>();
    private final List<String> leftAtClose = new CopyOnWriteArrayList<>();

    /**
     * @param declared the manifest's object for a decision (the last one the decision source read)
     * @param options the converge's options (the wizard writes: no dry run; it waits for capacity unless told to go on)
     * @param stop set by the terminal edge on a signal: every run stops at its next safe point, its record kept
     */
    public ClusterSteps(Cluster cluster, Clock clock, Journal journal, String operator, String server,
            Function<Decision, ObjectNode> declared, ConvergeOptions options, Checkpoint checkpoint, StopRequest stop) {
        this.cluster = cluster;
        this.clock = clock;
        this.journal = journal;
        this.operator = operator;
        this.server = server;
        this.declared = declared;
        this.options = options.withWaitForResize(true).withDryRun(false);
        this.checkpoint = checkpoint;
        this.stop = stop;
        this.readBack = new ReadBack(cluster);
        this.converger = new ConvergerSteps((progress, gate) -> new Converger(cluster, clock, journal, operator, server, gate, progress,
                checkpoint, stop), new RunRecords(cluster, journal, server), readBack, declared, this.options);
    }

    @Override
    public Outcome run(Phase row, Decision decision, String uid, StepRunner.Progress progress) {
        String key = Loaded.key(decision);
        if (row == Phase.CHECK) {
            return check(decision, uid, progress);
        }
        if (row == Phase.RESUME) {
            return converger.resume(decision, progress);
        }
        if (row == Phase.REVERT) {
            return revert(decision, progress);
        }
        WizardRun r = runs.get(key);
        if (r == null) {
            return Outcome.failed("no check ran for " + key + " in this wizard: leave it and open it again");
        }
        r.reportTo(progress);
        try {
            return row == Phase.RESTART ? converger.restart(r, progress) : advanceRow(r, row, uid, progress);
        } finally {
            r.reportTo(null);
        }
    }

    /** The StatefulSet assessed again; a machine is started only when it would make the writes the list showed. */
    private Outcome check(Decision decision, String uid, StepRunner.Progress progress) {
        String key = Loaded.key(decision);
        ObjectNode object = declared.apply(decision);
        if (object == null) {
            return Outcome.failed(key + " is no longer in the manifest: refresh the list (r)");
        }
        ConvergeOptions runOptions = optionsFor(decision);
        Assessment a = new Assessor(cluster, e -> WizardRun.report(progress, e)).copying(runOptions.copy()).assess(List.of(object), false,
                Assessor.Depth.APPLY, false, options.fieldManager());
        Assessed assessed = a.items().get(0);
        a.notes().forEach(n -> progress.report(n, "", true));
        assessed.notes().forEach(n -> progress.report(n, "", true));
        String problem = Recheck.problem(decision, uid, assessed);
        if (!problem.isEmpty()) {
            return Outcome.failed(problem);
        }
        boolean leases = !a.namespacesWithoutLeases().contains(assessed.namespace());
        WizardRun r = new WizardRun(assessed, p -> Convergence.start(steps(p), assessed, runOptions, leases));
        if (r.machine.finished() instanceof Convergence.Turn.Ended e) {
            return Outcome.failed(e.result().sentence());
        }
        WizardRun previous = runs.put(key, r);
        if (previous != null) {
            previous.machine.leave(); // a wizard opened again: the old one is over
        }
        progress.claims(readBack.claims(assessed.decision()));
        Decision d = assessed.decision();
        if (d.verdict() == Verdict.COPY) {
            return Outcome.done("re-read: " + d.claimsToCopy().size() + " claim(s) to copy to bigger volumes, one pod at a time, with the"
                    + " copy image " + runOptions.copy().image() + "; every permission and dry run accepted");
        }
        return Outcome.done("re-read: " + d.claimsToGrow().size() + " claim(s) to grow" + (d.recreate()
                ? ", then the orphan delete of UID " + r.assessedUid() + " and the re-apply" : "") + "; every permission and dry run accepted");
    }

    /**
     * The run's options for the decision the list showed: a copy plan is run with the operator's opt-in, {@code --copy}'s
     * when given, else the one the list's C gave that row (the default image, each claim's own class); any other
     * decision without it, so that a row the operator did not choose to copy is never decided into a copy here.
     */
    private ConvergeOptions optionsFor(Decision shown) {
        if (shown.verdict() != Verdict.COPY) {
            return options.withCopy(CopyOptIn.NONE);
        }
        return options.copy().chosen() ? options : options.withCopy(CopyOptIn.withDefaults());
    }

    private Steps steps(dev.stsresize.converge.Progress progress) {
        return new Steps(cluster, clock, journal, operator, server, progress, checkpoint, stop);
    }

    /**
     * The way back after a failed resize, as {@code kubectl stsresize revert} takes it ({@link Revert}): each
     * lowering patch dry-run first, then sent; the operator said yes in the wizard's dialog.
     */
    private Outcome revert(Decision decision, StepRunner.Progress progress) {
        Revert revert = new Revert(cluster, journal, clock);
        Revert.Planned planned = revert.plan(decision.namespace(), decision.name());
        if (!planned.problem().isEmpty()) {
            return Outcome.failed(planned.problem());
        }
        planned.claims().forEach(c -> progress.report("claim " + c.claim() + ": " + c.said(), "", false));
        if (planned.lowering().isEmpty()) {
            return Outcome.done("nothing to give back: no claim has a raised request this plugin recorded; nothing was written");
        }
        String refused = revert.dryRun(planned);
        if (!refused.isEmpty()) {
            return Outcome.failed(refused);
        }
        Revert.Done done = revert.apply(planned);
        progress.claims(readBack.claims(decision));
        if (!done.refusal().isEmpty()) {
            return Outcome.failed(done.refusal());
        }
        return Outcome.done(planned.lowering().size() + " claim request(s) given back" + (done.released().isEmpty() ? "" : "; "
                + done.released()));
    }

    // ---- the machine's turns, one checklist row at a time ---------------------------------------------

    /**
     * Answers the row's gate (the wizard passed it before asking for the row: {@code y}, or the typed name
     * for this UID), then advances the machine while it stands in a phase shown in the row. The row closes
     * on what the machine said it did; the checklist's last row closes on the end screen read back from
     * the objects.
     */
    private Outcome advanceRow(WizardRun r, Phase row, String uid, StepRunner.Progress progress) {
        Decision d = r.assessed.decision();
        List<Phase> checklist = Phase.checklist(d);
        boolean last = checklist.indexOf(row) == checklist.size() - 1;
        if (!r.machine.view().inRow(row) && !(last && r.machine.finished() != null)) {
            return Outcome.failed(r.machine.finished() != null ? ended(r.machine.finished())
                    : "the run of " + r.key() + " is not at its " + row.label() + ": leave the wizard and open it again");
        }
        switch (row.rowGate()) {
            case CONFIRM -> r.machine.answerGrow(true);
            case TYPE_NAME -> r.machine.allowDelete(new Steps.DeleteAllowed(d.namespace(), d.name(), uid));
            case NONE -> { }
        }
        // a copy's row spans every ordinal (evict, copy, rebind, re-apply, pod Ready): what the machine says of each turn is
        // told as it happens, so the row shows which pod is down and how far it is; any other row closes on its last word
        boolean tellEachTurn = d.verdict() == Verdict.COPY && row == Phase.COPY;
        String told = r.machine.said();
        while (r.machine.view().inRow(row)) {
            Convergence.Turn t = r.machine.advance();
            if (t instanceof Convergence.Turn.AtGate g) {
                return Outcome.failed("the " + g.gate().words() + " gate has not been passed: nothing was written");
            }
            String said = r.machine.said();
            if (tellEachTurn && !said.equals(told) && r.machine.view().inRow(row)) {
                progress.report(said, "", false);
            }
            told = said;
        }
        progress.claims(readBack.claims(d));
        Convergence.Turn end = r.machine.finished();
        if (last) {
            return endScreen(r, end, progress);
        }
        if (end != null && !(end.result() != null && end.result().succeeded())) {
            return Outcome.failed(ended(end));
        }
        return Outcome.done(r.machine.said() + (end == null ? "" : "; the Lease is released (no recreate needed)"));
    }

    /** The end of the run read back from the objects: the machine's result (verified now unless the run ended before). */
    private Outcome endScreen(WizardRun r, Convergence.Turn end, StepRunner.Progress progress) {
        StatefulSetResult result = end == null ? null : end.result();
        if (result == null) {
            return Outcome.failed(ended(end));
        }
        Summary summary = readBack.summary(r.assessedUid(), r.restarted, result);
        progress.summary(summary);
        return summary.converged() && summary.problems().isEmpty() ? Outcome.done(r.assessed.decision().verdict() == Verdict.COPY
                ? copyVerified(summary) : verified(summary))
                : Outcome.failed(String.join("; ", summary.problems()));
    }

    /** A copy re-creates every pod on purpose: what is verified is that each stands under the new StatefulSet, each claim at its target. */
    private static String copyVerified(Summary summary) {
        return "verified from the objects read back: " + summary.pods().size() + " pod(s) re-created on their new volumes, each naming the"
                + " new StatefulSet as controller; " + summary.claims().stream().filter(Summary.ClaimCheck::atTarget).count() + " of "
                + summary.claims().size() + " claim(s) at capacity";
    }

    private static String verified(Summary summary) {
        long restarted = summary.pods().stream().filter(Summary.PodCheck::restarted).count();
        Boolean usable = summary.spaceUsable();
        return "verified from the objects read back: " + summary.pods().size() + " pod(s) name the new StatefulSet as controller"
                + (restarted == 0 ? " and kept their UIDs" : ", " + restarted + " restarted for their file systems") + "; "
                + summary.claims().stream().filter(Summary.ClaimCheck::atTarget).count() + " of " + summary.claims().size()
                + " claim(s) at capacity; " + (Boolean.TRUE.equals(usable) ? "the pods can write to the new space"
                        : Boolean.FALSE.equals(usable) ? "the pods cannot use all of the new space yet" : "file systems not followed");
    }

    private static String ended(Convergence.Turn end) {
        return end == null ? "the run has not ended" : end.result() == null ? "the run stopped on an error; its record stays for resume" : end.result().sentence();
    }

    @Override
    public List<ClaimProgress> claims(Decision decision) {
        return readBack.claims(decision); // a claim that cannot be read is left out: the table keeps the rest
    }

    // ---- leaving -------------------------------------------------------------------------------------

    @Override
    public void goOn(Decision decision) {
        WizardRun r = runs.get(Loaded.key(decision));
        if (r != null) {
            r.machine.goOn();
        }
    }

    /** The operator is leaving: a wait running now ends at once, so that {@link #abandon} runs next. */
    @Override
    public void leaving(Decision decision) {
        WizardRun r = runs.get(Loaded.key(decision));
        if (r != null) {
            r.machine.leaving();
        }
    }

    /** The operator left the wizard: a run before its delete is released with nothing deleted; one past it is finished. */
    @Override
    public void abandon(Decision decision) {
        WizardRun r = runs.remove(Loaded.key(decision));
        if (r != null) {
            r.machine.leave();
        }
    }

    /**
     * Leaves every run still open ({@link Convergence#leave}): those before their delete are released,
     * those past it finished rather than cut off by the process's exit.
     */
    @Override
    public void close() {
        for (String key : List.copyOf(runs.keySet())) {
            WizardRun r = runs.remove(key);
            if (r != null) {
                if (r.assessed.decision().verdict() == Verdict.COPY && r.machine.finished() == null && r.machine.position() != Phase.LOCK) {
                    // a copy is not finished on the way out (every ordinal, minutes each): it stops at its next safe point,
                    // the StatefulSet re-applied over the pod's own claims where none was deleted yet (Convergence's stop)
                    stop.request("the UI closed");
                }
                boolean wroteSomething = r.machine.position() != Phase.LOCK || r.machine.finished() != null;
                r.machine.leave();
                if (wroteSomething) {
                    leftAtClose.add(key + ": " + whereItStands(key, r.machine.finished()));
                }
            }
        }
    }

    /**
     * For each StatefulSet whose wizard was still open when the UI closed (quit, Ctrl-C) and had begun to
     * write: where it stands once closing released or finished it, one line each, for the terminal the UI
     * leaves behind (the screen that said it is gone).
     */
    public List<String> leftAtClose() {
        return List.copyOf(leftAtClose);
    }

    private static String whereItStands(String key, Convergence.Turn end) {
        if (end instanceof Convergence.Turn.Stopped st) {
            String sentence = st.result().sentence();
            return sentence + (st.resumeCommand().isEmpty() || sentence.contains(st.resumeCommand()) ? "" : "; finish with: " + st.resumeCommand());
        }
        if (end != null && end.result() != null) {
            return end.result().sentence();
        }
        return "left midway, its record kept; finish with: kubectl stsresize resume " + key;
    }

    /** The StatefulSets whose run is past the delete gate and not finished: what closing finishes first (a copy: stops). */
    public List<String> finishing() {
        List<String> out = new ArrayList<>();
        runs.forEach((key, r) -> {
            if (r.machine.pastTheDelete() && r.assessed.decision().verdict() != Verdict.COPY) {
                out.add(key);
            }
        });
        return out;
    }

    /** The StatefulSets whose copy is under way: what closing stops at its next safe point (see {@link #close}). */
    public List<String> copying() {
        List<String> out = new ArrayList<>();
        runs.forEach((key, r) -> {
            if (r.assessed.decision().verdict() == Verdict.COPY && r.machine.finished() == null && r.machine.position() != Phase.LOCK) {
                out.add(key);
            }
        });
        return out;
    }

    /** How the run of {@code decision} in this wizard ended (null while it goes on, or when no run started). */
    public Convergence.Turn finished(Decision decision) {
        WizardRun r = runs.get(Loaded.key(decision));
        return r == null ? null : r.machine.finished();
    }
}
