package dev.stsresize.plan;

import java.util.Locale;

/** Byte counts as people read them on a terminal: {@code 9.2Gi}, {@code 512Mi}, {@code 800}. */
public final class Bytes {
    private static final String[] UNITS = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};

    private Bytes() {}

    public static String human(long bytes) {
        if (bytes < 1024) {
            return Long.toString(Math.max(0, bytes));
        }
        double v = bytes;
        int u = 0;
        while (v >= 1024 && u < UNITS.length - 1) {
            v /= 1024;
            u++;
        }
        String number = v >= 100 || v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v)
                : String.format(Locale.ROOT, "%.1f", v);
        if (number.endsWith(".0")) {
            number = number.substring(0, number.length() - 2);
        }
        return number + UNITS[u];
    }
}
