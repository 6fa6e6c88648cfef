package dev.stsresize.tui;

import dev.stsresize.plan.Decision;
import java.util.List;

/**
 * The wizard's checklist: the Converger's procedure as the operator sees it. {@code write} steps change
 * the cluster; {@code gate} says what the operator must do before the step may start.
 */
public enum WizardStep {
    CHECK("check", "re-read the StatefulSet and claims, dry-run the writes", false, Gate.NONE),
    GROW("grow", "patch each claim's storage request to the target", true, Gate.CONFIRM),
    WAIT("wait", "wait for each claim's capacity to reach the target", false, Gate.NONE),
    ORPHAN_DELETE("orphan-delete", "delete the StatefulSet alone (Orphan, UID check)", true, Gate.TYPE_NAME),
    REAPPLY("re-apply", "apply the manifest: it adopts the running pods", true, Gate.NONE),
    VERIFY("verify", "pod UIDs unchanged, owners back, capacity at target", false, Gate.NONE),
    /** Offered after adoption when a file system waits for its pod's restart; never part of the plan itself. */
    RESTART("restart", "evict each pod whose file system waits, one at a time", true, Gate.NONE),
    /** An interrupted run finished from its record, offered when the UI starts; never part of the plan itself. */
    RESUME("resume", "finish the interrupted run from its record (Lease or journal)", true, Gate.NONE);

    /** What the operator must do before a step starts: nothing, press y, or type the StatefulSet's name. */
    public enum Gate { NONE, CONFIRM, TYPE_NAME }

    private final String label;
    private final String purpose;
    private final boolean write;
    private final Gate gate;

    WizardStep(String label, String purpose, boolean write, Gate gate) {
        this.label = label;
        this.purpose = purpose;
        this.write = write;
        this.gate = gate;
    }

    public String label() {
        return label;
    }

    public String purpose() {
        return purpose;
    }

    public boolean write() {
        return write;
    }

    public Gate gate() {
        return gate;
    }

    /** A template growth needs the recreate; claims that merely lag are grown and verified, nothing more. */
    public static List<WizardStep> forDecision(Decision d) {
        return d.recreate() ? List.of(CHECK, GROW, WAIT, ORPHAN_DELETE, REAPPLY, VERIFY) : List.of(CHECK, GROW, WAIT, VERIFY);
    }
}
