package dev.stsresize.plan;

import java.time.Duration;

/** A time to full as people read it: {@code 45m}, {@code 3h}, {@code 2d}; the unit chosen by size, rounded down. */
public final class Durations {
    private Durations() {}

    public static String brief(Duration d) {
        long s = Math.max(0, d.toSeconds());
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return s / 60 + "m";
        }
        if (s < 2 * 86_400) {
            return s / 3600 + "h";
        }
        return s / 86_400 + "d";
    }
}
