package dev.stsresize.converge;

import java.util.List;

/**
 * The end of one StatefulSet's converge, as the Result document shows it. Built from what was read
 * back from the cluster, never from what was asked.
 *
 * @param reason for refused, blocked and failed: the reason word ({@code forbidden}, {@code locked},
 *     {@code other-immutable}, {@code resize-timeout}, …); empty otherwise
 */
public record StatefulSetResult(String namespace, String name, Outcome outcome, String reason, String detail,
        List<ClaimResult> claims, List<PodResult> pods, List<String> warnings) {

    public StatefulSetResult {
        reason = reason == null ? "" : reason;
        claims = List.copyOf(claims);
        pods = List.copyOf(pods);
        warnings = List.copyOf(warnings);
    }

    /** One claim: its request before, the target, and the capacity last read ("" when unknown). */
    public record ClaimResult(String name, String from, String to, String capacity) {}

    /** One pod: its UID before the delete and after the re-apply ("" when it is gone). */
    public record PodResult(String name, String uidBefore, String uidAfter) {}
}
