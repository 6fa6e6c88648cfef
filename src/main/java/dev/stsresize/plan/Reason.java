package dev.stsresize.plan;

/**
 * Why a StatefulSet is refused or blocked. Declaration order is the reporting priority: when several
 * apply, the first one is the {@code reason}, and every permanent one outranks every transient one.
 */
public enum Reason {
    TEMPLATE_CHANGED("template-changed", true),
    OTHER_IMMUTABLE("other-immutable", true),
    OWNED("owned", true),
    SHRINK("shrink", true),
    NOT_EXPANDABLE("not-expandable", true),
    /** A claim to grow has a class whose provisioner no resizer serves (see {@link Resizers}). */
    NO_RESIZER("no-resizer", true),
    /**
     * Opted in to the copy ({@link CopyOptIn}): a claim to copy is {@code ReadWriteMany}; other pods may write to it
     * while one pod is down for its copy, and what they write after the copy started would be lost.
     */
    COPY_READ_WRITE_MANY("copy-read-write-many", true),
    /** Opted in to the copy: a claim to copy has {@code volumeMode: Block}; the copy pod copies files, not devices. */
    COPY_BLOCK_VOLUME("copy-block-volume", true),
    CLAIM_UNBOUND("claim-unbound", false),
    /**
     * A claim requests the target (or more) but its volume is below it and its last resize failed: the StatefulSet is
     * not re-created over it, nor said to match, until the resize completes or its request is given back (added by
     * the assessment, which reads the resizer's words).
     */
    RESIZE_FAILED("resize-failed", false),
    /**
     * Opted in to the copy: the new volumes' class cannot give one (it does not exist, or it is
     * {@code kubernetes.io/no-provisioner} without an Available PersistentVolume that fits); the finding names what to create.
     */
    COPY_NO_VOLUME("copy-no-volume", false),
    /**
     * Opted in to the copy: a pod to copy may not be evicted now, its PodDisruptionBudget says (the server's dry run of
     * the eviction, 429): the copy takes each pod down in turn, so it does not start (added by the assessment).
     */
    COPY_BUDGET("copy-budget", false),
    /** The user lacks a permission the converge needs (added by the converge). */
    FORBIDDEN("forbidden", false);

    private final String label;
    private final boolean permanent;

    Reason(String label, boolean permanent) {
        this.label = label;
        this.permanent = permanent;
    }

    public String label() {
        return label;
    }

    /** Permanent reasons refuse (exit 2); the others block (exit 1) until the cluster changes. */
    public boolean permanent() {
        return permanent;
    }
}
