package dev.stsresize.plan;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How full one PersistentVolumeClaim's volume is, as the kubelet measured it (or Prometheus scraped it).
 *
 * @param claim the claim's name
 * @param usedBytes bytes in use on the file system
 * @param capacityBytes the file system's size (may be below the claim's capacity until a file-system resize)
 * @param availableBytes bytes still free to unprivileged writers (below capacity − used by the reserved blocks)
 * @param fillsIn when {@code availableBytes} runs out at the measured growth rate; empty when no rate is known
 *     or the volume does not grow
 */
public record ClaimUsage(String claim, long usedBytes, long capacityBytes, long availableBytes, Optional<Duration> fillsIn) {
    public ClaimUsage {
        Objects.requireNonNull(claim, "claim");
        Objects.requireNonNull(fillsIn, "fillsIn");
        if (usedBytes < 0 || capacityBytes < 0 || availableBytes < 0) {
            throw new IllegalArgumentException("negative bytes for claim " + claim);
        }
    }

    /** Used as a percentage of capacity, 0..100 (100 when a volume reports no capacity but is used). */
    public double usedPercent() {
        if (capacityBytes == 0) {
            return usedBytes == 0 ? 0 : 100;
        }
        return Math.min(100.0, 100.0 * usedBytes / capacityBytes);
    }

    /** Bytes per second the volume grows by, when a time to full is known. */
    public Optional<Double> bytesPerSecond() {
        return fillsIn.filter(d -> !d.isZero() && !d.isNegative())
                .map(d -> availableBytes / (d.toMillis() / 1000.0));
    }

    public ClaimUsage withFillsIn(Optional<Duration> fillsIn) {
        return new ClaimUsage(claim, usedBytes, capacityBytes, availableBytes, fillsIn);
    }
}
