package dev.stsresize.cluster;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as kubectl takes them: Go's {@code time.ParseDuration} ("30s", "1m30s", "1.5h", "250ms"),
 * and a bare integer as seconds ("0" = no timeout), as {@code --request-timeout} accepts.
 */
public final class KubectlDuration {
    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)(ns|us|µs|μs|ms|s|m|h)");

    private KubectlDuration() {}

    /** @throws IllegalArgumentException with a message that shows valid examples */
    public static Duration parse(String text) {
        String s = text == null ? "" : text.strip();
        if (s.matches("\\d+")) {
            return Duration.ofSeconds(Long.parseLong(s));
        }
        Matcher m = PART.matcher(s);
        int at = 0;
        BigDecimal nanos = BigDecimal.ZERO;
        while (at < s.length() && m.find(at) && m.start() == at) {
            nanos = nanos.add(new BigDecimal(m.group(1).startsWith(".") ? "0" + m.group(1) : m.group(1))
                    .multiply(BigDecimal.valueOf(unitNanos(m.group(2)))));
            at = m.end();
        }
        if (at == 0 || at != s.length()) {
            throw new IllegalArgumentException("invalid duration \"" + text
                    + "\": use a number with a unit, like 30s, 1m, 1m30s or 2h (0 for none)");
        }
        return Duration.ofNanos(nanos.longValue());
    }

    /**
     * The duration as kubectl and Go write it ({@code time.Duration.String}): "10m0s", "1h30m0s", "45s", "1.5s",
     * "250ms", "0s"; never Java's "PT10M", which no kubectl user has seen.
     */
    public static String format(Duration d) {
        long nanos = d.toNanos();
        if (nanos == 0) {
            return "0s";
        }
        String sign = nanos < 0 ? "-" : "";
        long n = Math.abs(nanos);
        if (n < 1_000_000_000L) {
            // below a second Go picks the largest unit that keeps a whole part
            if (n < 1_000L) {
                return sign + n + "ns";
            }
            if (n < 1_000_000L) {
                return sign + fraction(n, 1_000L) + "µs";
            }
            return sign + fraction(n, 1_000_000L) + "ms";
        }
        long hours = n / 3_600_000_000_000L;
        long minutes = n / 60_000_000_000L % 60;
        String seconds = fraction(n % 60_000_000_000L, 1_000_000_000L) + "s";
        if (hours > 0) {
            return sign + hours + "h" + minutes + "m" + seconds;
        }
        if (minutes > 0) {
            return sign + minutes + "m" + seconds;
        }
        return sign + seconds;
    }

    /** {@code n / unit} with the remainder as decimals, trailing zeros dropped, as Go's fmtFrac. */
    private static String fraction(long n, long unit) {
        return new BigDecimal(n).divide(BigDecimal.valueOf(unit)).stripTrailingZeros().toPlainString();
    }

    private static long unitNanos(String unit) {
        return switch (unit) {
            case "ns" -> 1L;
            case "us", "µs", "μs" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            default -> 3_600_000_000_000L;
        };
    }
}
