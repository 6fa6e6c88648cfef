package dev.stsresize.converge;

import dev.stsresize.plan.Decision;
import java.util.List;

/**
 * The phases of the one converge procedure (docs/design.md), each named once: what the CLI's progress
 * lines are tagged with, where {@link Convergence} stands, the wizard's checklist rows and the phase a
 * run's {@link Record} keeps. Each carries what every front end needs, so that a new phase is one value
 * here, one case in {@link Convergence#advance} and one step method in {@link Steps}.
 *
 * <p>Some phases are parts of one row of the wizard's checklist ({@link #shownAs}): the Lease is taken in
 * the grow's row, a resumed run's regrow is part of the re-apply's row, the file systems' wait part of the
 * verification's.
 */
public enum Phase {
    READ("read", "list the StatefulSets, claims and classes", false, Gate.NONE, "", "1"),
    DECIDE("decide", "compare the manifest with the live objects", false, Gate.NONE, "", "2"),
    CHECK("check", "re-read the StatefulSet and claims, dry-run the writes", false, Gate.NONE, "", "3"),
    LOCK("lock", "take the Lease and record the run", true, Gate.CONFIRM, "locked", "4"),
    /** The copy migration's first write: every volume to copy set to Retain, its policy recorded. */
    RETAIN("retain", "set each volume to copy to reclaim policy Retain, its policy recorded", true, Gate.NONE, "retaining", "C1"),
    GROW("grow", "patch each claim's storage request to the target", true, Gate.NONE, "growing", "5"),
    WAIT("wait", "wait for each claim's capacity to reach the target", false, Gate.NONE, "", "5"),
    ORPHAN_DELETE("orphan-delete", "delete the StatefulSet alone (Orphan, UID check)", true, Gate.TYPE_NAME, "deleting", "6"),
    /** A copy, per ordinal: its pod evicted (budgets hold) while the StatefulSet is absent, so nothing re-creates it. */
    EVICT("evict", "evict the pod whose claims are copied (PodDisruptionBudgets hold)", true, Gate.NONE, "evicting", "C3"),
    /** A copy, per ordinal: each claim copied to a new volume at the target, verified by the copy pod's manifests. */
    COPY("copy", "copy each claim of the pod to a new volume, verified file by file", true, Gate.NONE, "copying", "C4"),
    /** A copy, per ordinal: the new volume kept (Retain) and bound to the claim's own name; the old one kept Released. */
    REBIND("rebind", "re-create each claim under its own name on its new volume; the old volume kept", true, Gate.NONE, "rebinding",
            "C5"),
    /** A resumed run with the StatefulSet absent: the claims grown (requests only) and re-read before the re-apply. */
    REGROW("regrow", "grow what is left of the claims before the re-apply", true, Gate.NONE, "", "7"),
    REAPPLY("re-apply", "apply the manifest: it adopts the running pods", true, Gate.NONE, "reapplying", "7"),
    /** A copy, per ordinal: the pod the re-applied StatefulSet re-creates, Ready on its new volumes, before the next. */
    POD_READY("pod-ready", "wait until the re-created pod is Ready on its new volumes", false, Gate.NONE, "", "C6"),
    /** A copy's end: the new volumes given their class's reclaim policy back; the old ones stay Retain, listed. */
    RECLAIM("reclaim", "give the new volumes their class's reclaim policy back", true, Gate.NONE, "reclaiming", "C7"),
    /** A grow verifies the pods kept; a copy, whose pods are re-created on purpose, that each stands on its new volumes. */
    VERIFY("verify", "pods adopted (same UIDs), capacity at target", false, Gate.NONE, "verifying", "8",
            "pods re-created on the new volumes, capacity at target"),
    FILE_SYSTEMS("file-systems", "follow each claim until the kubelet has grown its file system", false, Gate.NONE, "", "8"),
    /** Offered after adoption when a file system waits for its pod's restart; never part of the plan itself. */
    RESTART("restart", "evict each pod whose file system waits, one at a time", true, Gate.NONE, "", "5"),
    RECORD("record", "Events on the objects written, the Lease released", true, Gate.NONE, "", "9"),
    /** An interrupted run finished from its record, offered when the UI starts; never part of the plan itself. */
    RESUME("resume", "finish the interrupted run from its record (Lease or journal)", true, Gate.NONE, "", "4, 9"),
    /**
     * After a resize that failed or did not finish: each claim whose resize did not complete lowered back to its
     * size before the run ({@link Revert}); offered by the wizard, and {@code kubectl stsresize revert}.
     */
    REVERT("revert", "lower each claim whose resize did not complete back to its size before the run", true, Gate.NONE, "", "10"),
    /** Nothing more: see the result. */
    ENDED("ended", "the run is over", false, Gate.NONE, "", "9");

    private final String label;
    private final String purpose;
    private final boolean writes;
    private final Gate gate;
    private final String recorded;
    private final String designStep;
    private final String purposeInACopy;

    Phase(String label, String purpose, boolean writes, Gate gate, String recorded, String designStep) {
        this(label, purpose, writes, gate, recorded, designStep, purpose);
    }

    Phase(String label, String purpose, boolean writes, Gate gate, String recorded, String designStep, String purposeInACopy) {
        this.label = label;
        this.purpose = purpose;
        this.writes = writes;
        this.gate = gate;
        this.recorded = recorded;
        this.designStep = designStep;
        this.purposeInACopy = purposeInACopy;
    }

    public String label() {
        return label;
    }

    public String purpose() {
        return purpose;
    }

    /** What the phase does in the run of {@code d}: where a copy does it otherwise (the verification), the copy's words. */
    public String purposeIn(Decision d) {
        return d != null && d.verdict() == dev.stsresize.plan.Verdict.COPY ? purposeInACopy : purpose;
    }

    /** Whether the phase changes the cluster. */
    public boolean writes() {
        return writes;
    }

    /** What the operator must do before the phase starts. */
    public Gate gate() {
        return gate;
    }

    /** The phase a run's record says once this phase has begun its writes; "" when it keeps the one before. */
    public String recorded() {
        return recorded;
    }

    /** The step of docs/design.md's converge procedure this phase implements. */
    public String designStep() {
        return designStep;
    }

    /** The wizard's checklist row this phase is part of, in a run that grows claims in place. */
    public Phase shownAs() {
        return switch (this) {
            case LOCK -> GROW;
            case REGROW -> REAPPLY;
            case FILE_SYSTEMS -> VERIFY;
            default -> this;
        };
    }

    /**
     * The wizard's checklist row this phase is part of in a copy migration ({@link #checklist}): the Lease is taken
     * in the retain's row, each ordinal's evict, copy, rebind, re-apply and wait in the copy's row (so are the orphan
     * deletes after the first: {@link Convergence.View#row}), the reclaim in the verification's.
     */
    public Phase shownInCopyAs() {
        return switch (this) {
            case LOCK -> RETAIN;
            case EVICT, REBIND, REAPPLY, POD_READY -> COPY;
            case RECLAIM -> VERIFY;
            default -> this;
        };
    }

    /** The gate of this row of the checklist: the gate of the first phase shown in it, in either procedure. */
    public Gate rowGate() {
        for (Phase p : values()) {
            if (p.shownAs() == this || p.shownInCopyAs() == this) {
                return p.gate();
            }
        }
        return Gate.NONE;
    }

    /**
     * The phase a record's phase names (the phase that wrote it), or null for a phase this version never
     * writes: a record is input from elsewhere.
     */
    public static Phase ofRecorded(String phase) {
        for (Phase p : values()) {
            if (!p.recorded.isEmpty() && p.recorded.equals(phase)) {
                return p;
            }
        }
        return null;
    }

    /** Whether a record at {@code phase} passed the orphan delete's gate: it was deleting or later. */
    public static boolean pastTheDeleteGate(String phase) {
        Phase p = ofRecorded(phase);
        return p != null && p.compareTo(ORPHAN_DELETE) >= 0;
    }

    /** The wizard's checklist for a decision: a template growth needs the recreate; claims that merely lag are grown and verified. */
    public static List<Phase> checklist(Decision d) {
        if (d.verdict() == dev.stsresize.plan.Verdict.COPY) {
            return List.of(CHECK, RETAIN, ORPHAN_DELETE, COPY, VERIFY);
        }
        return d.recreate() ? List.of(CHECK, GROW, WAIT, ORPHAN_DELETE, REAPPLY, VERIFY) : List.of(CHECK, GROW, WAIT, VERIFY);
    }
}
