package dev.stsresize.usage;

import dev.stsresize.plan.ClaimUsage;
import dev.stsresize.plan.Durations;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Successive usage reads (the UI's periodic summaries) when no Prometheus gives a rate: the growth of each
 * claim is the least-squares slope of its used bytes over the reads kept, as Prometheus' {@code deriv} is
 * over its samples, and the time to full is the available bytes at that slope. No slope is taken before the
 * reads span {@link #ENOUGH}: the kubelet measures a volume once per its {@code volumeStatsAggPeriod}
 * (1m by default, 10 s on some clusters) and answers every summary in between from that measure, so a few reads seconds apart hold one
 * or two measures, and a slope through them is noise. Not thread-safe: the UI's update owns it.
 */
public final class UsageSamples {
    /** Enough reads for a steady slope without keeping a whole day of them. */
    static final int KEPT = 120;
    /** The span before a slope means something: five of the kubelet's measures at its default period. */
    public static final Duration ENOUGH = Duration.ofMinutes(5);

    private final Deque<UsageReport> reads = new ArrayDeque<>();

    /** Keeps one more read (reads older than the last {@value #KEPT} are dropped). */
    public UsageSamples add(UsageReport report) {
        if (!reads.isEmpty() && report.readAt().isBefore(reads.peekLast().readAt())) {
            return this; // a late answer of an older read: the newer one stands
        }
        reads.addLast(report);
        while (reads.size() > KEPT) {
            reads.removeFirst();
        }
        return this;
    }

    /** How long the kept reads span (zero with fewer than two). */
    public Duration sampledFor() {
        return reads.size() < 2 ? Duration.ZERO : Duration.between(reads.peekFirst().readAt(), reads.peekLast().readAt());
    }

    public int size() {
        return reads.size();
    }

    /**
     * The latest read with a time to full for each claim that has none yet (Prometheus gave none) and grew
     * over the reads kept, and a note saying how long it has sampled (before {@link #ENOUGH}: that the growth is
     * not yet known). Empty before the first read.
     */
    public Optional<UsageReport> withRates() {
        if (reads.isEmpty()) {
            return Optional.empty();
        }
        UsageReport latest = reads.peekLast();
        if (reads.size() < 2 || sampledFor().isZero()) {
            return Optional.of(latest);
        }
        if (sampledFor().compareTo(ENOUGH) < 0) {
            return Optional.of(latest.withFillsIn(Map.of(), List.of("growth not yet known: sampled for "
                    + Durations.brief(sampledFor()) + " of the " + Durations.brief(ENOUGH) + " a time to full needs")));
        }
        Map<String, List<Point>> series = new LinkedHashMap<>();
        for (UsageReport r : reads) {
            double t = Duration.between(reads.peekFirst().readAt(), r.readAt()).toMillis() / 1000.0;
            r.claimsByKey().forEach((key, c) -> series.computeIfAbsent(key, k -> new ArrayList<>()).add(new Point(t, c.usedBytes())));
        }
        Map<String, Optional<Duration>> fillsIn = new LinkedHashMap<>();
        latest.claimsByKey().forEach((key, c) -> {
            if (c.fillsIn().isEmpty()) {
                fillsIn.put(key, fillsIn(c, series.getOrDefault(key, List.of())));
            }
        });
        return Optional.of(latest.withFillsIn(fillsIn,
                List.of("growth measured from " + reads.size() + " reads over " + Durations.brief(sampledFor()))));
    }

    private record Point(double seconds, double used) {}

    private static Optional<Duration> fillsIn(ClaimUsage c, List<Point> points) {
        if (points.size() < 2) {
            return Optional.empty();
        }
        double slope = slope(points);
        if (!(slope > 0)) {
            return Optional.empty();
        }
        return Optional.of(Duration.ofSeconds((long) Math.ceil(c.availableBytes() / slope)));
    }

    /** The least-squares slope, as Prometheus' deriv computes it. */
    static double slope(List<Point> points) {
        double n = points.size();
        double sx = 0;
        double sy = 0;
        double sxx = 0;
        double sxy = 0;
        for (Point p : points) {
            sx += p.seconds;
            sy += p.used;
            sxx += p.seconds * p.seconds;
            sxy += p.seconds * p.used;
        }
        double denominator = n * sxx - sx * sx;
        return denominator == 0 ? 0 : (n * sxy - sx * sy) / denominator;
    }
}
