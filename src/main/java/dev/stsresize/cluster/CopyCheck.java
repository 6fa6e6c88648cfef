package dev.stsresize.cluster;

/**
 * What a copy pod's outcome proves, read by {@link CopyPodLog#verify}: {@link CopyVerified} (the only way to one
 * is that method), or {@link Unverified} with the reason, for the operator.
 */
public sealed interface CopyCheck permits CopyVerified, CopyCheck.Unverified {
    /** The copy is not proven: the run stops before any delete, and says why. */
    record Unverified(String reason) implements CopyCheck {}
}
