package dev.stsresize.render;

import dev.stsresize.plan.Bytes;
import dev.stsresize.plan.ClaimState;
import dev.stsresize.plan.ClaimUsage;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Durations;
import dev.stsresize.plan.StatefulSetUsage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What a copy plan costs the application, said before the run: one pod at a time, each down from its eviction
 * until its copy, rebind and restart end; how long each copy takes, estimated from the claim's used bytes where the
 * usage is known; and, for a StatefulSet of one serving replica, that the application is down for the whole copy.
 */
public final class CopyDowntime {
    /**
     * The rate an estimate assumes: the copy pod reads each byte, writes it, then hashes both sides for the manifests,
     * on the node's own disks; a conservative figure for local disks, stated beside every estimate.
     */
    public static final long ASSUMED_BYTES_PER_SECOND = 50L * 1024 * 1024;

    private CopyDowntime() {}

    /** The paragraph for a copy plan; empty for any other decision. */
    public static Optional<String> paragraph(Decision d, Optional<StatefulSetUsage> usage) {
        List<ClaimState> copied = d.claimsToCopy();
        if (copied.isEmpty()) {
            return Optional.empty();
        }
        StringBuilder b = new StringBuilder("downtime: one pod at a time, each down from its eviction until its copy, rebind and"
                + " restart end");
        if (servingOrdinals(d) == 1) {
            b.append("; the StatefulSet has 1 replica: the application is down for the whole copy");
        }
        Map<String, ClaimUsage> used = usage.map(u -> u.claims().stream().collect(Collectors.toMap(ClaimUsage::claim,
                Function.identity(), (a, x) -> a))).orElse(Map.of());
        List<String> estimates = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        for (ClaimState c : copied) {
            ClaimUsage u = used.get(c.name());
            // on a file system shared with the node (local-path, hostpath) the used bytes are the node's disk, not the claim's
            if (u == null || u.sharedFileSystem()) {
                unknown.add(c.name());
            } else {
                estimates.add(c.name() + " " + Bytes.human(u.usedBytes()) + " used, about " + Durations.brief(estimate(u.usedBytes())));
            }
        }
        if (!estimates.isEmpty()) {
            b.append("; each copy, estimated from the used bytes at ").append(Bytes.human(ASSUMED_BYTES_PER_SECOND)).append("/s: ")
                    .append(String.join(", ", estimates));
        }
        if (!unknown.isEmpty()) {
            b.append(estimates.isEmpty() ? "; how long each copy takes depends on the data"
                    : "; for " + String.join(", ", unknown) + " it depends on the data")
                    .append(" (its usage is not known here, or is its node's shared disk)");
        }
        return Optional.of(b.toString());
    }

    /** The time the copy of {@code usedBytes} takes at the assumed rate, rounded up to a second. */
    static Duration estimate(long usedBytes) {
        long seconds = Math.max(1, (Math.max(0, usedBytes) + ASSUMED_BYTES_PER_SECOND - 1) / ASSUMED_BYTES_PER_SECOND);
        return Duration.ofSeconds(seconds);
    }

    /** The ordinals whose pods serve (their claims are within the replicas): 1 means the set's only replica goes down. */
    private static int servingOrdinals(Decision d) {
        TreeSet<Integer> ordinals = new TreeSet<>();
        d.claims().stream().filter(c -> !c.scaledAway()).forEach(c -> ordinals.add(c.ordinal()));
        return ordinals.size();
    }
}
