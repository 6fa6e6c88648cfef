package dev.stsresize.plan;

/**
 * A bigger size for one volume claim template.
 *
 * @param template the volumeClaimTemplate's name
 * @param current its size now (the template's quantity as written)
 * @param suggested the size to set, in the template's unit ({@code 14Gi} beside {@code 10Gi})
 * @param why one line: which claim, how full, what the size gives
 * @param cappedByQuota the namespace's ResourceQuota ({@code requests.storage}) lowered it or cannot hold it
 */
public record SuggestedSize(String template, String current, String suggested, String why, boolean cappedByQuota) {}
