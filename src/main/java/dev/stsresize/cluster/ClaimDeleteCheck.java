package dev.stsresize.cluster;

/** What {@link ClaimDeleteAllowed#check} found: the token that lets the port delete the claim, or why not. */
public sealed interface ClaimDeleteCheck permits ClaimDeleteAllowed, ClaimDeleteCheck.Refused {
    /** The claim is not deleted: the run stops here and says why. */
    record Refused(String reason) implements ClaimDeleteCheck {}
}
