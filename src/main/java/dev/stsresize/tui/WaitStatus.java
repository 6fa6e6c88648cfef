package dev.stsresize.tui;

import java.time.Duration;

/**
 * A wait of the running step as it stands, sent at least every ten seconds while it lasts: what it
 * waits for, for how long, and how long is left before the run's timeout. Plain data; each claim's
 * state and its resizer's latest word come with the claims ({@link ClaimProgress}).
 */
public record WaitStatus(String what, Duration elapsed, Duration left) {
    /** "waiting 1m20s (8m40s left) for …". */
    public String sentence() {
        return "waiting " + words(elapsed) + " (" + words(left) + " left) for " + what;
    }

    static String words(Duration d) {
        long s = Math.max(0, d.getSeconds());
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return (s / 60) + "m" + (s % 60 < 10 ? "0" : "") + (s % 60) + "s";
        }
        long m = (s % 3600) / 60;
        return (s / 3600) + "h" + (m < 10 ? "0" : "") + m + "m";
    }
}
