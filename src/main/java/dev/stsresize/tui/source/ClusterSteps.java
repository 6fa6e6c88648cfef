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
import dev.stsresize.converge.RunRecords;
import dev.stsresize.converge.StatefulSetResult;
import dev.stsresize.converge.Steps;
import dev.stsresize.converge.StopRequest;
import dev.stsresize.plan.Decision;
import dev.stsresize.tui.ClaimProgress;
import dev.stsresize.tui.Loaded;
import dev.stsresize.tui.StepRunner;
import dev.stsresize.tui.Summary;
import dev.stsresize.tui.WizardStep;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
    public Outcome run(WizardStep step, Decision decision, String uid, StepRunner.Progress progress) {
        String key = Loaded.key(decision);
        if (step == WizardStep.CHECK) {
            return check(decision, uid, progress);
        }
        if (step == WizardStep.RESUME) {
            return converger.resume(decision, progress);
        }
        WizardRun r = runs.get(key);
        if (r == null) {
            return Outcome.failed("no check ran for " + key + " in this wizard: leave it and open it again");
        }
        r.reportTo(progress);
        try {
            return switch (step) {
                case CHECK, RESUME -> throw new IllegalStateException("handled above");
                case GROW -> grow(r, progress);
                case WAIT -> await(r, progress);
                case ORPHAN_DELETE -> orphanDelete(r, uid, progress);
                case REAPPLY -> reapply(r);
                case VERIFY -> verify(r, progress);
                case RESTART -> converger.restart(r, progress);
            };
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
        Assessment a = new Assessor(cluster, e -> WizardRun.report(progress, e)).assess(List.of(object), false, Assessor.Depth.APPLY,
                false, options.fieldManager());
        Assessed assessed = a.items().get(0);
        a.notes().forEach(n -> progress.report(n, "", true));
        assessed.notes().forEach(n -> progress.report(n, "", true));
        String problem = Recheck.problem(decision, uid, assessed);
        if (!problem.isEmpty()) {
            return Outcome.failed(problem);
        }
        boolean leases = !a.namespacesWithoutLeases().contains(assessed.namespace());
        WizardRun r = new WizardRun(assessed, p -> Convergence.start(steps(p), assessed, options, leases));
        if (r.machine.finished() instanceof Convergence.Turn.Ended e) {
            return Outcome.failed(e.result().sentence());
        }
        WizardRun previous = runs.put(key, r);
        if (previous != null) {
            previous.machine.leave(); // a wizard opened again: the old one is over
        }
        progress.claims(readBack.claims(assessed.decision()));
        Decision d = assessed.decision();
        return Outcome.done("re-read: " + d.claimsToGrow().size() + " claim(s) to grow" + (d.recreate()
                ? ", then the orphan delete of UID " + r.assessedUid() + " and the re-apply" : "") + "; every permission and dry run accepted");
    }

    private Steps steps(dev.stsresize.converge.Progress progress) {
        return new Steps(cluster, clock, journal, operator, server, progress, checkpoint, stop);
    }

    // ---- the machine's turns, in the wizard's words ---------------------------------------------------

    /** The Lease and the record, then the claims: the grow gate was answered yes by the wizard's {@code y}. */
    private Outcome grow(WizardRun r, StepRunner.Progress progress) {
        r.machine.answerGrow(true);
        r.resetPatched();
        Outcome ended = advanceWhile(r, Convergence.Position.LOCK, Convergence.Position.GROW);
        progress.claims(readBack.claims(r.assessed.decision()));
        if (ended != null) {
            return ended;
        }
        return Outcome.done(r.patched() + " claim(s) patched; the Lease holds the run while the claims grow");
    }

    private Outcome await(WizardRun r, StepRunner.Progress progress) {
        Outcome ended = advanceWhile(r, Convergence.Position.WAIT);
        if (ended == null && r.machine.position() == Convergence.Position.FILE_SYSTEMS) {
            // a run that only grows claims follows their file systems now: its end says whether the pods can use the space
            ended = advanceWhile(r, Convergence.Position.FILE_SYSTEMS);
            progress.claims(readBack.claims(r.assessed.decision()));
            return ended;
        }
        List<ClaimProgress> claims = readBack.claims(r.assessed.decision());
        progress.claims(claims);
        if (ended != null && !(r.machine.finished() instanceof Convergence.Turn.Ended e && e.result().succeeded())) {
            return ended;
        }
        long unsettled = claims.stream().filter(c -> !c.state().settled()).count();
        if (unsettled > 0) {
            return Outcome.done("went on without waiting: the resizer keeps growing " + unsettled + " claim(s)");
        }
        long pending = claims.stream().filter(c -> c.state() == ClaimProgress.State.FILE_SYSTEM_PENDING).count();
        String reached = pending == 0 ? "capacity reached on " + claims.size() + " claim(s)"
                : (pending == claims.size() ? "every volume grew" : "capacity reached on " + (claims.size() - pending) + " claim(s)")
                        + "; " + pending + " file system(s) not grown by the kubelet yet (followed after the re-apply)";
        return Outcome.done(reached + (ended == null ? "" : "; the Lease is released (no recreate needed)"));
    }

    /**
     * Runs only when the wizard's name gate passed (Update asks for it then): the operator allowed the
     * delete of this StatefulSet with the UID the wizard showed, and the delete step checks exactly that.
     */
    private Outcome orphanDelete(WizardRun r, String uid, StepRunner.Progress progress) {
        if (r.machine.position() != Convergence.Position.ORPHAN_DELETE) {
            return Outcome.failed(r.machine.finished() != null ? ended(r.machine.finished())
                    : "the run of " + r.key() + " is not at its orphan delete: leave the wizard and open it again");
        }
        Decision d = r.assessed.decision();
        r.machine.allowDelete(new Steps.DeleteAllowed(d.namespace(), d.name(), uid));
        boolean[] warned = {false};
        r.reportTo(new StepRunner.Progress() {
            @Override
            public void report(String message, String kubectl, boolean warning) {
                warned[0] |= warning;
                progress.report(message, kubectl, warning);
            }

            // the wait for the delete goes on the screen as every wait does
            @Override
            public void claims(List<ClaimProgress> claims) {
                progress.claims(claims);
            }

            @Override
            public void waiting(dev.stsresize.tui.WaitStatus wait) {
                progress.waiting(wait);
            }
        });
        Outcome ended = advanceWhile(r, Convergence.Position.ORPHAN_DELETE);
        progress.claims(readBack.claims(d));
        if (ended != null) {
            return ended;
        }
        return Outcome.done(warned[0] ? "StatefulSet gone (404), with the warning above" : "pods and claims re-read: each still there with its UID");
    }

    private Outcome reapply(WizardRun r) {
        Outcome ended = advanceWhile(r, Convergence.Position.REAPPLY, Convergence.Position.REGROW);
        if (ended != null) {
            return ended;
        }
        if (r.machine.restored()) {
            return Outcome.done("the re-apply FAILED and the backup was restored: the pods have their owner again, with"
                    + " the old claim templates");
        }
        return Outcome.done("re-applied: the StatefulSet stands again, with the grown claim templates");
    }

    /** The end of the run read back from the objects: the machine's result (verified now unless the run ended before). */
    private Outcome verify(WizardRun r, StepRunner.Progress progress) {
        if (r.machine.finished() == null && r.machine.position() != Convergence.Position.VERIFY) {
            return Outcome.failed("the orphan delete of " + r.key() + " has not run: nothing to verify");
        }
        advanceWhile(r, Convergence.Position.VERIFY, Convergence.Position.FILE_SYSTEMS);
        StatefulSetResult result = r.machine.finished() == null ? null : r.machine.finished().result();
        if (result == null) {
            return Outcome.failed(ended(r.machine.finished()));
        }
        Summary summary = readBack.summary(r.assessedUid(), r.restarted, result);
        progress.claims(readBack.claims(r.assessed.decision()));
        progress.summary(summary);
        return summary.converged() && summary.problems().isEmpty() ? Outcome.done(verified(summary))
                : Outcome.failed(String.join("; ", summary.problems()));
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

    /**
     * Advances the machine while it stands at one of {@code at}; null when it moved past them, else how
     * the step ended (the run over, stopped, or at a gate the wizard had not answered).
     */
    private static Outcome advanceWhile(WizardRun r, Convergence.Position... at) {
        while (List.of(at).contains(r.machine.position())) {
            Convergence.Turn t = r.machine.advance();
            if (t instanceof Convergence.Turn.AtGate g) {
                return Outcome.failed("the " + g.gate().name().toLowerCase(Locale.ROOT).replace('_', ' ')
                        + " gate has not been passed: nothing was written");
            }
        }
        Convergence.Turn end = r.machine.finished();
        if (end == null) {
            return null;
        }
        return end.result() != null && end.result().succeeded() ? Outcome.done(end.result().sentence()) : Outcome.failed(ended(end));
    }

    private static String ended(Convergence.Turn end) {
        return end.result() == null ? "the run stopped on an error; its record stays for resume" : end.result().sentence();
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
                boolean wroteSomething = r.machine.position() != Convergence.Position.LOCK || r.machine.finished() != null;
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
            return st.result().sentence() + (st.resumeCommand().isEmpty() ? "" : "; finish with: " + st.resumeCommand());
        }
        if (end != null && end.result() != null) {
            return end.result().sentence();
        }
        return "left midway, its record kept; finish with: kubectl stsresize resume " + key;
    }

    /** The StatefulSets whose run is past the delete gate and not finished: what closing finishes first. */
    public List<String> finishing() {
        List<String> out = new ArrayList<>();
        runs.forEach((key, r) -> {
            if (r.machine.pastTheDelete()) {
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
