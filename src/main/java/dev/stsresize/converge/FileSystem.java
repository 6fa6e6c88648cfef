package dev.stsresize.converge;

/**
 * Where a claim's file system stands at the end of a run, as the {@code fileSystem} word of the Result
 * document says it: whether the pod can write to the new space now.
 */
public enum FileSystem {
    /** The kubelet grew it: no resize status or condition left, and its summary (where it can be read) agrees. */
    GROWN("grown"),
    /** Its driver grows it only when the volume is not in use: it grows when its pod is restarted. */
    WAITS_FOR_RESTART("waits-for-restart"),
    /** The kubelet had not finished when the run stopped following it (--fs-timeout, or the run went on). */
    PENDING("pending"),
    /** No pod mounts the claim (a scaled-away ordinal): its file system grows when a pod next mounts it. */
    NO_POD("no-pod"),
    /** Not known: the volume itself has not grown, or the claim is gone. */
    UNKNOWN("unknown");

    private final String label;

    FileSystem(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** Whether the pod can write to the new space now. */
    public boolean usable() {
        return this == GROWN;
    }

    /** Whether a running pod cannot use the space yet: no pod mounting the claim keeps none waiting. */
    public boolean keepsAPodWaiting() {
        return this != GROWN && this != NO_POD;
    }
}
