package dev.stsresize.sim.usage;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * How full each claim's filesystem is: the simulator's own model, out of the plugin's sight (no
 * annotation, no object it could read), served through the kubelet summary API and the Prometheus
 * endpoint. {@code used(t) = min(capacity − reserved, start + rate × (t − start time))}: it grows linearly
 * and stops where writes are refused; the capacity is the claim's {@code status.capacity} at the moment of
 * measuring, so a resize lowers the percentage. A claim without a {@link Growth} of its own gets one from
 * the seed (10–55 % used, filling in months), the same for the same seed, namespace and name.
 *
 * <p>Each file system keeps back {@link #DEFAULT_RESERVED} of its blocks (or what {@link #reserve} sets), as
 * ext4 does for root: mke2fs reserves 5 % by default (misc/mke2fs.c, {@code reserved_ratio}) and resize2fs
 * keeps the share when it grows one. statfs reports those blocks free but not available ({@code f_bavail <
 * f_bfree}), and ext4 refuses an unprivileged writer the last of them (ext4_has_free_clusters), so an
 * application's writes stop at capacity − reserved, where the kubelet's usedBytes is still below capacityBytes.
 * xfs reserves nothing: {@code reserve(…, 0)}.
 *
 * <p>Time is the model's clock plus what {@link #advance} added; tests fix both.
 */
public final class VolumeUsage {
    /** A claim's growth once resolved: the bytes it started from and its rate. */
    private record Resolved(long startBytes, double bytesPerSecond) {}

    /** ext4's default reserved-blocks share (mke2fs -m 5). */
    public static final double DEFAULT_RESERVED = 0.05;

    private final Map<String, Growth> configured = new LinkedHashMap<>();
    private final Map<String, Double> reserved = new LinkedHashMap<>();
    private final Map<String, Resolved> resolved = new LinkedHashMap<>();
    private long seed = 1;
    private Clock clock;
    private Instant start;
    private Duration advanced = Duration.ZERO;

    public VolumeUsage(Clock clock) {
        this.clock = clock;
        this.start = clock.instant();
    }

    /** Sets how claim NS/NAME fills (forgetting what it was measured at before). */
    public synchronized VolumeUsage set(String namespace, String claim, Growth growth) {
        configured.put(key(namespace, claim), growth);
        resolved.remove(key(namespace, claim));
        return this;
    }

    /** Sets the share of claim NS/NAME's file system reserved for root, 0 to 0.5 (0.05 = ext4's default, 0 = xfs). */
    public synchronized VolumeUsage reserve(String namespace, String claim, double fraction) {
        if (!(fraction >= 0 && fraction <= 0.5)) {
            throw new IllegalArgumentException("a reserved fraction is between 0 and 0.5, not " + fraction);
        }
        reserved.put(key(namespace, claim), fraction);
        return this;
    }

    /** The reserved shares set by {@link #reserve} (the others are {@link #DEFAULT_RESERVED}), for saving the state. */
    public synchronized Map<String, Double> reserved() {
        return Map.copyOf(reserved);
    }

    /** The seed of every claim without a growth of its own. */
    public synchronized VolumeUsage seed(long seed) {
        this.seed = seed;
        resolved.keySet().removeIf(k -> !configured.containsKey(k));
        return this;
    }

    public synchronized long seed() {
        return seed;
    }

    /** Uses {@code clock} from now on; the model starts over at its instant (nothing advanced). */
    public synchronized VolumeUsage useClock(Clock clock) {
        this.clock = clock;
        this.start = clock.instant();
        this.advanced = Duration.ZERO;
        return this;
    }

    /** Moves the model's time forward (for tests with a fixed clock, or a demo that fast-forwards). */
    public synchronized VolumeUsage advance(Duration d) {
        advanced = advanced.plus(d);
        return this;
    }

    /** The model's time now. */
    public synchronized Instant now() {
        return clock.instant().plus(advanced);
    }

    /** When the model started: usage is {@code start bytes} then. */
    public synchronized Instant start() {
        return start;
    }

    /** The configured growths (not the seeded ones), for saving the state. */
    public synchronized Map<String, Growth> configured() {
        return Map.copyOf(configured);
    }

    /** Claim NS/NAME with {@code capacityBytes} now. */
    public Measurement measure(String namespace, String claim, long capacityBytes) {
        return measureAt(namespace, claim, capacityBytes, now());
    }

    /** Claim NS/NAME with {@code capacityBytes} at {@code time} (before the start, extrapolated back, never below 0). */
    public synchronized Measurement measureAt(String namespace, String claim, long capacityBytes, Instant time) {
        Resolved r = resolve(namespace, claim, capacityBytes);
        double seconds = Duration.between(start, time).toMillis() / 1000.0;
        long reservedBytes = Math.round(reserved.getOrDefault(key(namespace, claim), DEFAULT_RESERVED) * capacityBytes);
        long used = Math.round(r.startBytes() + r.bytesPerSecond() * seconds);
        used = Math.max(0, Math.min(capacityBytes - reservedBytes, used)); // the application's writes stop at the reserve
        return new Measurement(time, used, capacityBytes, reservedBytes, r.bytesPerSecond());
    }

    /** The growth rate of claim NS/NAME in bytes per second. */
    public synchronized double bytesPerSecond(String namespace, String claim, long capacityBytes) {
        return resolve(namespace, claim, capacityBytes).bytesPerSecond();
    }

    private Resolved resolve(String namespace, String claim, long capacityBytes) {
        return resolved.computeIfAbsent(key(namespace, claim), k -> {
            Growth g = configured.get(k);
            if (g == null) {
                g = seeded(k, capacityBytes);
            }
            return new Resolved(g.startBytesAt(capacityBytes), g.bytesPerSecond());
        });
    }

    /** 10–55 % used, filling in 60–360 days from empty: quiet volumes beside the ones a scenario sets. */
    private Growth seeded(String key, long capacityBytes) {
        SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L ^ key.hashCode());
        double fraction = 0.10 + random.nextDouble() * 0.45;
        double daysToFill = 60 + random.nextDouble() * 300;
        return Growth.fraction(fraction, capacityBytes / (daysToFill * 86_400));
    }

    static String key(String namespace, String claim) {
        return namespace + "/" + claim;
    }
}
