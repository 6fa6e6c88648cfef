package dev.stsresize.converge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.plan.Decision;
import java.util.List;
import java.util.Optional;

/**
 * One StatefulSet's converge as a state machine, the one every driver advances: {@code apply} and
 * {@code resume} (through {@link Converger}) and the terminal UI's wizard. Like the StatefulSet
 * controller's {@code stateful_set_control.go}, each {@link #advance} computes the next action from
 * where the run stands — its {@link Phase}, which a resumed run takes from the recorded phase and
 * the StatefulSet it finds ({@link #resumeAt}) — and does that one action, re-reading before it writes.
 *
 * <p>What a human decides comes in as values: {@link #answerGrow} and {@link #allowDelete} /
 * {@link #declineDelete}; a machine that reaches a gate unanswered does nothing and says {@link
 * Turn.AtGate}. The waits and their deadlines are the {@link Steps}' (one {@link Waiter}). The
 * driver's {@link StopRequest} is honoured at each safe point: before each action, between claim
 * patches, and in every wait; the run then keeps its record and {@link Turn.Stopped} says the phase
 * it reached, for {@code kubectl stsresize resume}.
 *
 * <p>Advanced from one thread at a time (its methods are synchronized); {@link #goOn}, {@link
 * #position} and {@link #pastTheDelete} may be called from any thread while a wait runs.
 */
public final class Convergence {
    /** What one {@link #advance} did. */
    public sealed interface Turn {
        /** The run's result when this turn ended or stopped it; null otherwise, and for a run ended by an error. */
        default StatefulSetResult result() {
            return null;
        }

        /** One action done; the run now stands at {@code next}. */
        record Moved(Phase next) implements Turn {}

        /** Nothing done: the gate waits for its answer. */
        record AtGate(Gate gate) implements Turn {}

        /** The run is over: released, or its record kept where it could not finish (the result says which). */
        record Ended(StatefulSetResult result) implements Turn {}

        /**
         * Stopped on request at a safe point: the request in flight finished, no other write started. The
         * record stays at {@code phase} ("" when nothing was written: nothing to resume).
         */
        record Stopped(String namespace, String name, String phase, StatefulSetResult result) implements Turn {
            /** The command that finishes the run, "" when nothing was written. */
            public String resumeCommand() {
                return phase.isEmpty() ? "" : "kubectl stsresize resume " + namespace + "/" + name;
            }
        }
    }

    private final Steps steps;
    private final ConvergeOptions opts;
    private final Decision decision;
    private final Steps.Checked checked;
    private final boolean leases;
    private volatile Phase position;
    private volatile Steps.Run run;
    private Boolean growAnswer;
    private Steps.DeleteAllowed deleteAllowed;
    private boolean deleteDeclined;
    /** The driver went on without waiting, perhaps before the run took its lock: its wait ends at once. */
    private volatile boolean wentOn;
    /** The driver went on without waiting for the file systems (or is leaving): their wait ends at once. */
    private final StopRequest fileSystemsGoneOn = new StopRequest();
    /** The adoption verified, for the file systems' step; null for a run that only grew claims. */
    private Steps.Verified verified;
    private Turn last;
    /** What the last action did, in the words every front end shows for it ("" before the first). */
    private volatile String said = "";

    private Convergence(Steps steps, ConvergeOptions opts, Decision decision, Steps.Checked checked, boolean leases, Phase position,
            Steps.Run run) {
        this.steps = steps;
        this.opts = opts;
        this.decision = decision;
        this.checked = checked;
        this.leases = leases;
        this.position = position;
        this.run = run;
    }

    /** A new run of an assessed StatefulSet: checked now (no request); it ends at once when there is nothing to write. */
    public static Convergence start(Steps steps, Assessed a, ConvergeOptions opts, boolean leases) {
        Steps.Checked checked = steps.check(a, opts, leases);
        Convergence m = new Convergence(steps, opts, a.decision(), checked, leases, Phase.LOCK, null);
        if (!checked.proceeds()) {
            m.end(checked.stop());
        }
        return m;
    }

    /** A stopped run taken up again, its Lease held anew, from where its record and the cluster say it stands. */
    static Convergence resumed(Steps steps, ConvergeOptions opts, Steps.Run held, Phase from) {
        return new Convergence(steps, opts, null, null, true, from, held);
    }

    /**
     * Where a stopped run goes on, from its record and the StatefulSet standing now: with nothing to
     * re-create, the grow (each claim re-read, those grown skipped); with the StatefulSet absent, the
     * re-apply after the claims; with the recorded UID standing, the grow again (the delete had not
     * happened, or not finished); with another UID standing, the re-apply happened: its verification.
     */
    static Phase resumeAt(Record r, Optional<ObjectNode> standing) {
        if (r.copies()) {
            return copyResumesAt(r, standing);
        }
        if (r.reapply() == null) {
            return Phase.GROW;
        }
        if (standing.isEmpty()) {
            return Phase.REGROW;
        }
        return r.uid().equals(Objects.uid(standing.get())) ? Phase.GROW : Phase.VERIFY;
    }

    /**
     * Where a stopped copy goes on: with the StatefulSet absent, the current ordinal's evict (each later step finds its
     * claims where the crash left them); with the recorded UID standing, its retain or its orphan delete (asked again);
     * with another UID standing, the re-apply of the current ordinal happened: the wait for its pod. The reclaim and the
     * verification are done again as they are.
     */
    static Phase copyResumesAt(Record r, Optional<ObjectNode> standing) {
        Phase recorded = Phase.ofRecorded(r.phase());
        if (recorded == Phase.RECLAIM || recorded == Phase.VERIFY || r.copy().current() < 0) {
            return standing.isEmpty() ? Phase.REAPPLY : Phase.RECLAIM;
        }
        if (standing.isEmpty()) {
            return Phase.EVICT;
        }
        if (!r.uid().equals(Objects.uid(standing.get()))) {
            return Phase.POD_READY;
        }
        return recorded == null || recorded.compareTo(Phase.RETAIN) <= 0 ? Phase.RETAIN : Phase.ORPHAN_DELETE;
    }

    /** The decision a new run acts on (null for a resumed run: its record says what to do). */
    public Decision decision() {
        return decision;
    }

    public String namespace() {
        Steps.Run r = run;
        return r != null ? r.namespace() : decision.namespace();
    }

    public String name() {
        Steps.Run r = run;
        return r != null ? r.name() : decision.name();
    }

    public Phase position() {
        return position;
    }

    /** The phase the record says now ("" before the run took its lock). */
    public synchronized String phase() {
        return run == null ? "" : run.record().phase();
    }

    /** The StatefulSet's UID this run recorded (the one its orphan delete may delete), "" before the lock. */
    public synchronized String recordedUid() {
        return run == null ? "" : run.record().uid();
    }

    /** Whether the re-apply failed and the backup was restored instead. */
    public synchronized boolean restored() {
        return run != null && run.restored();
    }

    /** Whether the run is past its orphan delete and not over: what is left (re-apply, verify, release) is better finished than cut off. */
    public boolean pastTheDelete() {
        return position == Phase.REGROW || position == Phase.REAPPLY || position == Phase.VERIFY
                || position == Phase.EVICT || position == Phase.COPY || position == Phase.REBIND || position == Phase.POD_READY
                || position == Phase.RECLAIM || position == Phase.FILE_SYSTEMS && verified != null;
    }

    /** The turn that ended or stopped the run, or null while it goes on. */
    public synchronized Turn finished() {
        return position == Phase.ENDED ? last : null;
    }

    /** What the last action did, said once for every front end: the wizard's row closes on it. */
    public String said() {
        return said;
    }

    /** The run as it stands, for a front end to draw as it is. */
    public synchronized View view() {
        return new View(position, row(), said, position == Phase.ENDED ? last : null, restored());
    }

    /** The checklist row the run stands in: a copy's orphan deletes after its first are part of its copy row. */
    private Phase row() {
        boolean copies = run != null ? run.record().copies() : decision != null && decision.verdict() == dev.stsresize.plan.Verdict.COPY;
        if (!copies) {
            return position.shownAs();
        }
        return position == Phase.ORPHAN_DELETE && run != null && run.record().copy().started() ? Phase.COPY : position.shownInCopyAs();
    }

    /**
     * The run as a front end draws it: the phase it stands at and the checklist row that phase is shown in, what its
     * last action did, how it ended (null while it goes on), and whether a failed re-apply put the backup back.
     */
    public record View(Phase phase, Phase row, String said, Turn ended, boolean restored) {
        /** Whether the run stands in a phase shown in the checklist row {@code row}. */
        public boolean inRow(Phase row) {
            return ended == null && this.row == row;
        }

        /** How the run ended, in one sentence: its result's, or that an error stopped it with its record kept for resume. */
        public String ending() {
            return ended == null ? "the run has not ended" : ended.result() == null
                    ? "the run stopped on an error; its record stays for resume" : ended.result().sentence();
        }
    }

    // ---- the operator's answers, as values ----------------------------------------------------------

    /** The grow gate's answer: yes takes the Lease and writes; no ends the run with nothing written. */
    public synchronized void answerGrow(boolean yes) {
        growAnswer = yes;
    }

    /** The orphan delete gate passed for this StatefulSet and UID: the delete step checks exactly that. */
    public synchronized void allowDelete(Steps.DeleteAllowed allowed) {
        deleteAllowed = allowed;
        deleteDeclined = false;
    }

    /** The operator passed {@code gate} before the phases behind it: a yes, or the name typed for the StatefulSet of this UID. */
    public synchronized void passed(Gate gate, String uid) {
        switch (gate) {
            case CONFIRM -> answerGrow(true);
            case TYPE_NAME -> allowDelete(new Steps.DeleteAllowed(namespace(), name(), uid));
            case NONE -> { }
        }
    }

    /** The operator said no at the orphan delete gate (or left): the run is released, the claims stay grown. */
    public synchronized void declineDelete() {
        deleteDeclined = true;
        deleteAllowed = null;
    }

    /**
     * Go on without waiting: the wait for capacity running now ends at once (the resizer keeps working), or,
     * once the run follows the file systems, that wait (the kubelet keeps working). Any thread.
     */
    public void goOn() {
        wentOn = true;
        Steps.Run r = run;
        if (r != null) {
            r.goOn();
        }
        if (position == Phase.FILE_SYSTEMS) {
            fileSystemsGoneOn.request("went on without waiting for the file systems");
        }
    }

    /** The driver is leaving: every wait still to come ends at once, the file systems' too. Any thread. */
    public void leaving() {
        fileSystemsGoneOn.request("the operator left");
        goOn();
    }

    /**
     * The driver leaves the run (the wizard closed or left): every wait ends, the delete gate says no, and
     * the run advances to its end — released with nothing deleted before its orphan delete, finished past
     * it (a StatefulSet deleted a moment ago is better re-applied than left absent). A run that has not
     * taken its lock has nothing to release. An error leaves the record where the run could not finish,
     * for {@code resume}.
     */
    public void leave() {
        leaving();
        if (finished() != null || position == Phase.LOCK) {
            return;
        }
        declineDelete();
        try {
            while (finished() == null) {
                if (advance() instanceof Turn.AtGate) {
                    return;
                }
            }
        } catch (RuntimeException e) {
            // the record stays where the run could not finish; resume takes it up
        }
    }

    // ---- the loop's one step ------------------------------------------------------------------------

    /**
     * Does the next action and says what happened. An exception (the server kept failing, the Lease was
     * lost) ends the run as a crash does: the Lease no longer renewed, the record kept for resume; a
     * step refused for want of its precondition ({@link Steps.NotAllowed}) sent nothing and the run holds.
     */
    public synchronized Turn advance() {
        if (position == Phase.ENDED) {
            return last;
        }
        if (steps.stop().requested() && position != Phase.FILE_SYSTEMS) {
            return stopHere(); // past the verification a stop only ends the wait for the file systems: the run ends released
        }
        try {
            return act();
        } catch (Steps.NotAllowed e) {
            deleteAllowed = null;
            throw e;
        } catch (CopySteps.CopyStopped e) {
            // before the rebind nothing of the ordinal was deleted: the StatefulSet comes back on the original claims
            if (steps.stop().requested()) {
                return stopHere();
            }
            return end(steps.copyStopped(run, e, copyingWithoutTheStatefulSet()));
        } catch (RuntimeException e) {
            closeRun();
            position = Phase.ENDED;
            last = new Turn.Ended(null);
            throw e;
        }
    }

    private Turn act() {
        switch (position) {
            case LOCK -> {
                if (growAnswer == null) {
                    return new Turn.AtGate(Phase.LOCK.gate());
                }
                if (!growAnswer) {
                    return end(Steps.result(decision.namespace(), decision.name(), Outcome.FAILED, "declined",
                            "the operator declined; nothing was written", decision));
                }
                Steps.Acquired lock = steps.lock(checked, opts, leases);
                if (!lock.held()) {
                    return end(Steps.notLocked(lock, decision));
                }
                run = lock.run();
                if (wentOn) {
                    run.goOn();
                }
                said = "the Lease and the record hold the run";
                return moved(run.record().copies() ? Phase.RETAIN : Phase.GROW);
            }
            case RETAIN -> {
                steps.retainOld(run);
                said = "every volume to copy is kept by reclaim policy Retain, its policy before recorded";
                return steps.stop().requested() ? stopHere() : moved(Phase.ORPHAN_DELETE);
            }
            case GROW -> {
                Steps.Grown grown = steps.grow(run);
                said = grown.patched().size() + " claim(s) patched; the Lease holds the run while the claims grow";
                return steps.stop().requested() ? stopHere() : moved(Phase.WAIT);
            }
            case WAIT -> {
                if (opts.waitForResize()) {
                    Steps.Waited w = steps.await(run, opts);
                    if (w.stopped()) {
                        return stopHere();
                    }
                    StatefulSetResult failed = waitFailed(w);
                    if (failed != null) {
                        return end(failed);
                    }
                    said = waited(w);
                }
                return moved(run.recreates() ? Phase.ORPHAN_DELETE : Phase.FILE_SYSTEMS);
            }
            case ORPHAN_DELETE -> {
                if (deleteDeclined) {
                    return end(steps.declined(run));
                }
                if (run.record().copies() && run.record().copy().started()) {
                    // the name was typed for the whole copy; this UID is the StatefulSet this run re-applied itself
                    deleteAllowed = new Steps.DeleteAllowed(run.namespace(), run.name(), run.record().uid());
                }
                if (deleteAllowed == null) {
                    return new Turn.AtGate(Phase.ORPHAN_DELETE.gate());
                }
                Steps.Deleted del = steps.orphanDelete(run, deleteAllowed);
                if (!del.gone()) {
                    return steps.stop().requested() && !del.nothingDeleted() ? stopHere() : end(steps.deleteFailed(run, del));
                }
                said = del.lost().isEmpty() ? "StatefulSet gone (404); pods and claims re-read: each still there with its UID"
                        : "StatefulSet gone (404), with the warning above";
                deleteAllowed = null;
                return moved(run.record().copies() ? Phase.EVICT : Phase.REAPPLY);
            }
            case EVICT -> {
                steps.evict(run, opts);
                said = "pod " + run.name() + "-" + run.record().copy().current() + " is down: its claims are copied next";
                return steps.stop().requested() ? stopHere() : moved(Phase.COPY);
            }
            case COPY -> {
                steps.copy(run, opts);
                said = "the claims of pod " + run.name() + "-" + run.record().copy().current() + " copied and verified";
                return steps.stop().requested() ? stopHere() : moved(Phase.REBIND);
            }
            case REBIND -> {
                steps.rebind(run, opts);
                said = "the claims of pod " + run.name() + "-" + run.record().copy().current()
                        + " are Bound under their own names to their new volumes; the old volumes kept";
                return moved(Phase.REAPPLY);
            }
            case POD_READY -> {
                int ordinal = run.record().copy().current();
                if (!steps.podReady(run, opts)) {
                    return steps.stop().requested() ? stopHere() : end(steps.result(run, Outcome.FAILED, "pod-not-ready", "pod "
                            + run.name() + "-" + ordinal + " is not Ready on its new volumes before --timeout; the other pods are"
                            + " untouched. Find out why (kubectl describe pod " + run.name() + "-" + ordinal + " -n " + run.namespace()
                            + "), then `kubectl stsresize resume " + run.namespace() + "/" + run.name() + "`", List.of()));
                }
                said = "pod " + run.name() + "-" + ordinal + " is Ready on its new volumes";
                if (steps.stop().requested()) {
                    return stopHere();
                }
                return moved(run.record().copy().current() < 0 ? Phase.RECLAIM : Phase.ORPHAN_DELETE);
            }
            case RECLAIM -> {
                steps.reclaim(run);
                said = "the new volumes have their class's reclaim policy back";
                return moved(Phase.VERIFY);
            }
            case REGROW -> {
                // the StatefulSet is absent: whoever deleted it, the claims are grown (requests only; a
                // re-read skips those already grown) before the object with grown templates is re-applied
                steps.growClaims(run);
                if (steps.stop().requested()) {
                    return stopHere();
                }
                steps.readDependents(run);
                return moved(Phase.REAPPLY);
            }
            case REAPPLY -> {
                Steps.Reapplied ra = steps.reapply(run);
                said = ra.restored() ? "the re-apply FAILED and the backup was restored: the pods have their owner again, with the old"
                        + " claim templates" : "re-applied: the StatefulSet stands again, with the grown claim templates";
                if (ra.statefulSet() != null && run.record().copies() && !ra.restored()) {
                    return moved(Phase.POD_READY);
                }
                return ra.statefulSet() == null ? end(steps.reapplyFailed(run, ra)) : moved(Phase.VERIFY);
            }
            case VERIFY -> {
                if (run.record().copies()) {
                    return end(steps.copied(run));
                }
                Steps.Verified v = steps.verify(run);
                if (!v.adopted() && steps.stop().requested()) {
                    return stopHere();
                }
                if (!v.adopted() || run.restored()) {
                    return end(steps.told(steps.verified(run, v, Steps.Restarts.NONE)));
                }
                verified = v;
                return moved(Phase.FILE_SYSTEMS);
            }
            case FILE_SYSTEMS -> {
                return end(steps.fileSystems(run, verified, opts, fileSystemsGoneOn));
            }
            default -> throw new IllegalStateException("no action at " + position);
        }
    }

    /** The wait's end in words: every claim settled, or the driver went on while some still grow. */
    private static String waited(Steps.Waited w) {
        long unsettled = w.claims().stream().filter(c -> c.state() == ClaimGrower.State.WAITING
                || c.state() == ClaimGrower.State.REQUESTED_LESS).count();
        if (w.wentOn() && unsettled > 0) {
            return "went on without waiting: the resizer keeps growing " + unsettled + " claim(s)";
        }
        long pending = w.claims().stream().filter(c -> c.state() == ClaimGrower.State.FILE_SYSTEM_PENDING).count();
        int all = w.claims().size();
        return pending == 0 ? "capacity reached on " + all + " claim(s)"
                : (pending == all ? "every volume grew" : "capacity reached on " + (all - pending) + " claim(s)") + "; " + pending
                        + " file system(s) not grown by the kubelet yet (followed after the re-apply)";
    }

    /** A wait that ended on something that stops the run before its delete: released, the requests stay raised. */
    private StatefulSetResult waitFailed(Steps.Waited w) {
        if (!w.infeasible().isEmpty()) {
            steps.release(run);
            return steps.result(run, Outcome.FAILED, "resize-infeasible", "the resize cannot happen: "
                    + String.join("; ", w.infeasible()) + ". Nothing was deleted; the claims' requests stay raised (the"
                    + " StatefulSet is untouched): ask the storage admin, or give the requests back with `kubectl stsresize revert "
                    + run.namespace() + "/" + run.name() + "`", List.of());
        }
        if (!w.failed().isEmpty()) {
            steps.release(run);
            return steps.result(run, Outcome.FAILED, "resize-failed", String.join("; ", w.failed()) + ". Nothing was deleted;"
                    + " the claims' requests stay raised (the StatefulSet is untouched) and the resizer keeps retrying: fix what"
                    + " its message names (kubectl describe pvc), then run again, or give the requests back with `kubectl stsresize"
                    + " revert " + run.namespace() + "/" + run.name() + "`", List.of());
        }
        if (!w.gone().isEmpty()) {
            steps.release(run);
            return steps.result(run, Outcome.FAILED, "claim-gone", "claim(s) " + String.join(", ", w.gone()) + " no longer exist:"
                    + " someone deleted them while this run grew them. Nothing was deleted and the StatefulSet is untouched; find out"
                    + " who removed them before you run again", List.of());
        }
        if (!w.waiting().isEmpty() && !w.wentOn()) {
            steps.release(run);
            return steps.result(run, Outcome.FAILED, "resize-timeout", "--timeout " + dev.stsresize.cluster.KubectlDuration.format(opts.timeout()) + " ran out before the"
                    + " claims grew: " + String.join("; ", w.waiting()) + ". Nothing was deleted; the requests are raised and"
                    + " the resizer keeps working: run again later to finish", List.of());
        }
        return null;
    }

    private Turn moved(Phase next) {
        position = next;
        return new Turn.Moved(next);
    }

    private Turn end(StatefulSetResult r) {
        closeRun();
        position = Phase.ENDED;
        last = new Turn.Ended(r);
        return last;
    }

    /**
     * The stop honoured here: the record kept as it stands (nothing to keep before the lock), the Lease
     * no longer renewed and its holder freed, so that resume takes it at once.
     */
    /** Whether the run stands where a copy has orphan-deleted the StatefulSet and not yet re-applied it. */
    private boolean copyingWithoutTheStatefulSet() {
        return run != null && run.record().copies() && (position == Phase.EVICT || position == Phase.COPY || position == Phase.REBIND);
    }

    private Turn stopHere() {
        String why = steps.stop().reason();
        // a copy stopped before any claim of its pod was deleted: the StatefulSet comes back, the pod with it
        String back = copyingWithoutTheStatefulSet() ? steps.reapplyIfIntact(run) : "";
        StatefulSetResult r;
        String phase;
        String held = run == null ? "" : run.free();
        if (run == null) {
            phase = "";
            r = Steps.result(decision.namespace(), decision.name(), Outcome.STOPPED, "stopped", "before the first write ("
                    + why + "): nothing was written and there is nothing to resume", decision);
        } else {
            phase = run.record().phase();
            r = steps.result(run, Outcome.STOPPED, "stopped", "at phase " + phase + " (" + why + "): the request in flight"
                    + " finished and no other write started. The run is recorded: `kubectl stsresize resume " + run.namespace() + "/"
                    + run.name() + "` finishes it" + back + (held.isEmpty() ? "" : "; " + held), List.of());
        }
        closeRun();
        position = Phase.ENDED;
        last = new Turn.Stopped(r.namespace(), r.name(), phase, r);
        return last;
    }

    private void closeRun() {
        if (run != null) {
            run.close();
        }
        steps.eventsWritten();
    }
}
