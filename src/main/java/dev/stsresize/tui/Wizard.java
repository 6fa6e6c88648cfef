package dev.stsresize.tui;

import dev.stsresize.converge.Phase;
import dev.stsresize.converge.Gate;
import dev.stsresize.plan.Decision;
import java.util.ArrayList;
import java.util.List;

/**
 * The wizard for one StatefulSet, as data: each step's status, the gate waiting for the operator (if
 * any), what was typed at the name gate, and the log of what the steps did with their kubectl equivalents.
 *
 * @param waiting the running step's wait as last told (null when no wait runs)
 * @param claimsFrom the first claim row the table shows when not all fit (PgUp/PgDn); the view clamps it to the rows and room
 *     it has, so a taller terminal or fewer claims never leave the table scrolled past its end
 */
public record Wizard(Decision decision, String uid, List<Phase> steps, List<StepStatus> statuses,
        Gate gate, String typed, List<LogLine> log, List<ClaimProgress> claims, Summary summary, boolean goingOn,
        WaitStatus waiting, int claimsFrom) {

    /** One thing a step did: a message, and for a write the kubectl command that does the same. */
    public record LogLine(Phase step, String message, String kubectl, boolean warning) {}

    public Wizard {
        steps = List.copyOf(steps);
        statuses = List.copyOf(statuses);
        log = List.copyOf(log);
        claims = List.copyOf(claims);
    }

    /** A new wizard: the first step (a read) running, the rest pending. */
    static Wizard start(Decision d, String uid) {
        List<Phase> steps = Phase.checklist(d);
        List<StepStatus> statuses = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            statuses.add(i == 0 ? StepStatus.RUNNING : StepStatus.PENDING);
        }
        return new Wizard(d, uid, steps, statuses, Gate.NONE, "", List.of(), List.of(), null, false, null, 0);
    }

    /** A wizard that finishes an interrupted run: one step, running. */
    static Wizard resuming(Decision d, String uid) {
        return new Wizard(d, uid, List.of(Phase.RESUME), List.of(StepStatus.RUNNING), Gate.NONE, "", List.of(),
                List.of(), null, false, null, 0);
    }

    public String key() {
        return Loaded.key(decision);
    }

    public StepStatus status(Phase s) {
        int i = steps.indexOf(s);
        return i < 0 ? null : statuses.get(i);
    }

    /** The running step, or the pending one a gate waits before; null when finished or failed. */
    public Phase current() {
        for (int i = 0; i < steps.size(); i++) {
            if (statuses.get(i) == StepStatus.RUNNING || statuses.get(i) == StepStatus.PENDING) {
                return steps.get(i);
            }
        }
        return null;
    }

    public boolean running() {
        return statuses.contains(StepStatus.RUNNING);
    }

    public boolean failed() {
        return statuses.contains(StepStatus.FAILED);
    }

    public boolean finished() {
        return statuses.stream().allMatch(s -> s == StepStatus.DONE);
    }

    public boolean wrote() {
        for (int i = 0; i < steps.size(); i++) {
            if (steps.get(i).writes() && statuses.get(i) != StepStatus.PENDING) {
                return true;
            }
        }
        return false;
    }

    /**
     * A write is running, or the StatefulSet is absent (orphan-deleted, not yet re-applied): leaving now
     * leaves the cluster mid-way, so quitting must be confirmed.
     */
    public boolean writeInFlight() {
        for (int i = 0; i < steps.size(); i++) {
            if (steps.get(i).writes() && statuses.get(i) == StepStatus.RUNNING) {
                return true;
            }
        }
        return statefulSetAbsent();
    }

    /**
     * The orphan delete started and the re-apply has not completed: for a copy, whose row re-applies the StatefulSet
     * after each pod's copy and deletes it again before the next, until that row is done.
     */
    public boolean statefulSetAbsent() {
        StepStatus delete = status(Phase.ORPHAN_DELETE);
        StepStatus reapply = status(copies() ? Phase.COPY : Phase.REAPPLY);
        return delete != null && delete != StepStatus.PENDING && reapply != StepStatus.DONE;
    }

    /** Whether this wizard runs the copy migration (its checklist has the copy's row). */
    public boolean copies() {
        return steps.contains(Phase.COPY);
    }

    Wizard with(Phase step, StepStatus status) {
        List<StepStatus> next = new ArrayList<>(statuses);
        next.set(steps.indexOf(step), status);
        // a step that starts or ends has no wait yet
        return new Wizard(decision, uid, steps, next, gate, typed, log, claims, summary, goingOn, null, claimsFrom);
    }

    Wizard withGate(Gate g, String typedText) {
        return new Wizard(decision, uid, steps, statuses, g, typedText, log, claims, summary, goingOn, waiting, claimsFrom);
    }

    Wizard logged(LogLine line) {
        List<LogLine> next = new ArrayList<>(log);
        next.add(line);
        return new Wizard(decision, uid, steps, statuses, gate, typed, next, claims, summary, goingOn, waiting, claimsFrom);
    }

    /** The running step's wait as last told; null when none runs. */
    Wizard withWaiting(WaitStatus w) {
        return new Wizard(decision, uid, steps, statuses, gate, typed, log, claims, summary, goingOn, w, claimsFrom);
    }

    Wizard withClaims(List<ClaimProgress> c) {
        return new Wizard(decision, uid, steps, statuses, gate, typed, log, c, summary, goingOn, waiting, claimsFrom);
    }

    /** The table scrolled to start at claim {@code first} (0 or more; the view clamps it to the room it has). */
    Wizard withClaimsFrom(int first) {
        return new Wizard(decision, uid, steps, statuses, gate, typed, log, claims, summary, goingOn, waiting, Math.max(0, first));
    }

    Wizard withSummary(Summary s) {
        return new Wizard(decision, uid, steps, statuses, gate, typed, log, claims, s, goingOn, waiting, claimsFrom);
    }

    Wizard wentOn() {
        return new Wizard(decision, uid, steps, statuses, gate, typed, log, claims, summary, true, waiting, claimsFrom);
    }

    /** {@code step} added at the end, running: the restart offered after adoption. */
    Wizard appended(Phase step) {
        List<Phase> s = new ArrayList<>(steps);
        s.add(step);
        List<StepStatus> st = new ArrayList<>(statuses);
        st.add(StepStatus.RUNNING);
        return new Wizard(decision, uid, s, st, gate, typed, log, claims, summary, goingOn, waiting, claimsFrom);
    }

    /** The way back can be offered: the wait for capacity failed (the resizer failed, or the time ran out), not offered yet. */
    public boolean revertOffered() {
        return status(Phase.WAIT) == StepStatus.FAILED && !steps.contains(Phase.REVERT);
    }

    /** The restart can be offered: verified, a file system waits for a pod that mounts it, not offered yet. */
    public boolean restartOffered() {
        return summary != null && finished() && steps.contains(Phase.VERIFY) && !steps.contains(Phase.RESTART)
                && !summary.restartable().isEmpty();
    }

    /** The step after {@code s}, or null. */
    Phase after(Phase s) {
        int i = steps.indexOf(s);
        return i + 1 < steps.size() ? steps.get(i + 1) : null;
    }
}
