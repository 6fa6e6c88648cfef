package dev.stsresize.sim.usage;

/**
 * How one claim fills: where it starts (a fraction of the capacity it is first measured at, or an
 * absolute number of bytes) and how fast it grows in bytes per second. A fraction is turned into bytes
 * once, at the first measurement, so a later resize makes the percentage drop instead of the usage jump.
 */
public record Growth(double startFraction, long startBytes, double bytesPerSecond) {
    public Growth {
        if (startBytes < 0 && (startFraction < 0 || startFraction > 1)) {
            throw new IllegalArgumentException("a start fraction is between 0 and 1, not " + startFraction);
        }
        if (bytesPerSecond < 0 || Double.isNaN(bytesPerSecond) || Double.isInfinite(bytesPerSecond)) {
            throw new IllegalArgumentException("a growth rate is 0 or more bytes per second, not " + bytesPerSecond);
        }
    }

    /** Starts at {@code fraction} of the capacity first measured (0.92 = 92 % used). */
    public static Growth fraction(double fraction, double bytesPerSecond) {
        return new Growth(fraction, -1, bytesPerSecond);
    }

    /** Starts at {@code bytes} used, whatever the capacity. */
    public static Growth bytes(long bytes, double bytesPerSecond) {
        if (bytes < 0) {
            throw new IllegalArgumentException("used bytes are 0 or more, not " + bytes);
        }
        return new Growth(0, bytes, bytesPerSecond);
    }

    /** The bytes used at the start, for a claim first measured at {@code capacityBytes}. */
    long startBytesAt(long capacityBytes) {
        return startBytes >= 0 ? startBytes : Math.round(startFraction * capacityBytes);
    }
}
