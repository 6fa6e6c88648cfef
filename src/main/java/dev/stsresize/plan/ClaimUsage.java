package dev.stsresize.plan;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How full one PersistentVolumeClaim's volume is, as the kubelet measured it (or Prometheus scraped it).
 *
 * <p>The kubelet's figures are statfs's (pkg/volume/util/fs Info): capacity {@code f_blocks × f_bsize}, available
 * {@code f_bavail × f_bsize}, used {@code (f_blocks − f_bfree) × f_bsize}. The blocks a file system keeps back
 * (ext4's 5 % for root) are in neither used nor available: a volume refuses writes while used is below capacity.
 *
 * @param claim the claim's name
 * @param usedBytes bytes in use on the file system
 * @param capacityBytes the file system's size (may be below the claim's capacity until a file-system resize)
 * @param availableBytes bytes still free to unprivileged writers (below capacity − used by the reserved blocks)
 * @param fillsIn when {@code availableBytes} runs out at the measured growth rate; empty when no rate is known
 *     or the volume does not grow
 * @param claimBytes the size the claim was made with (its template's), 0 when not known: what tells a shared file
 *     system ({@link #sharedFileSystem})
 */
public record ClaimUsage(String claim, long usedBytes, long capacityBytes, long availableBytes, Optional<Duration> fillsIn,
        long claimBytes) {
    /**
     * A file system more than this many times its claim's size is not the claim's own: a file system's own overhead
     * makes it smaller than its claim, and a claim grown ahead of its template rarely doubles.
     */
    public static final int SHARED_RATIO = 2;

    public ClaimUsage {
        Objects.requireNonNull(claim, "claim");
        Objects.requireNonNull(fillsIn, "fillsIn");
        if (usedBytes < 0 || capacityBytes < 0 || availableBytes < 0 || claimBytes < 0) {
            throw new IllegalArgumentException("negative bytes for claim " + claim);
        }
    }

    public ClaimUsage(String claim, long usedBytes, long capacityBytes, long availableBytes, Optional<Duration> fillsIn) {
        this(claim, usedBytes, capacityBytes, availableBytes, fillsIn, 0);
    }

    /**
     * How full the volume is as {@code KubePersistentVolumeFillingUp} measures it, {@code 1 − available ÷ capacity},
     * 0..100: 100 exactly when nothing more can be written, as {@code df}'s Use% (used ÷ (used + available)), while
     * used ÷ capacity stops short of 100 by the reserved blocks. 100 when a volume reports no capacity but is used.
     */
    public double usedPercent() {
        if (capacityBytes == 0) {
            return usedBytes == 0 ? 0 : 100;
        }
        return Math.max(0.0, Math.min(100.0, 100.0 * (1 - (double) availableBytes / capacityBytes)));
    }

    /**
     * {@link #usedPercent} as shown: rounded down, so that 89.6 % never reads as the 90 % that colours red (after a
     * millionth of a point, so that 92 % of a byte count rounded down, 91.9999999 %, reads 92).
     */
    public long shownPercent() {
        return (long) Math.floor(usedPercent() + 1e-6);
    }

    /** The bytes the file system keeps back from unprivileged writers: capacity − used − available, never negative. */
    public long reservedBytes() {
        return Math.max(0, capacityBytes - usedBytes - availableBytes);
    }

    /** Bytes per second the volume grows by, when a time to full is known. */
    public Optional<Double> bytesPerSecond() {
        return fillsIn.filter(d -> !d.isZero() && !d.isNegative())
                .map(d -> availableBytes / (d.toMillis() / 1000.0));
    }

    public ClaimUsage withFillsIn(Optional<Duration> fillsIn) {
        return new ClaimUsage(claim, usedBytes, capacityBytes, availableBytes, fillsIn, claimBytes);
    }

    /** This usage of a claim of {@code claimBytes} (its template's size). */
    public ClaimUsage measuredAgainst(long claimBytes) {
        return new ClaimUsage(claim, usedBytes, capacityBytes, availableBytes, fillsIn, Math.max(0, claimBytes));
    }

    /**
     * The reported capacity is more than {@link #SHARED_RATIO} times the claim's size: the volume is a directory of a
     * larger file system (a hostPath-style CSI driver's, or a local volume's directory), whose fullness is that file
     * system's and which no claim size changes.
     */
    public boolean sharedFileSystem() {
        return claimBytes > 0 && (double) capacityBytes / claimBytes > SHARED_RATIO;
    }
}
