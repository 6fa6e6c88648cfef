package dev.stsresize.plan;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What a suggested size must give: at least {@code headroomPercent} % free right after growing
 * ({@code --headroom}, default 30), and, when {@code lasts} is set ({@code --days N}), room for that long
 * at the measured growth rate. Both conditions hold together: the larger size wins.
 */
public record SizingPolicy(int headroomPercent, Optional<Duration> lasts) {
    public static final int DEFAULT_HEADROOM = 30;
    public static final SizingPolicy DEFAULT = new SizingPolicy(DEFAULT_HEADROOM, Optional.empty());

    public SizingPolicy {
        Objects.requireNonNull(lasts, "lasts");
        if (headroomPercent < 0 || headroomPercent > 90) {
            throw new IllegalArgumentException("--headroom must be between 0 and 90 (percent of the new size left free), not "
                    + headroomPercent);
        }
        if (lasts.isPresent() && (lasts.get().isNegative() || lasts.get().isZero())) {
            throw new IllegalArgumentException("--days must be above zero");
        }
    }

    public static SizingPolicy of(int headroomPercent, Integer days) {
        return new SizingPolicy(headroomPercent, days == null ? Optional.empty() : Optional.of(Duration.ofDays(days)));
    }
}
