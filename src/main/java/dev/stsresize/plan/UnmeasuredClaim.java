package dev.stsresize.plan;

import java.util.Objects;

/**
 * A claim of a StatefulSet's running ordinals whose usage is not known, and why: its pod is not running, its node's
 * summary could not be read, or the kubelet reports no stats for that volume (a volume plugin without them, such as
 * a hostPath volume; a CSI driver without GET_VOLUME_STATS; a volume mounted since the kubelet's last measure).
 *
 * @param claim the claim's name ({@code <template>-<statefulset>-<ordinal>})
 * @param reason one phrase, said after the claim's name ("pod ledger-2 is Pending")
 */
public record UnmeasuredClaim(String claim, String reason) {
    public UnmeasuredClaim {
        Objects.requireNonNull(claim, "claim");
        Objects.requireNonNull(reason, "reason");
    }
}
