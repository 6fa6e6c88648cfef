package dev.stsresize.plan;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Map;

/**
 * A Kubernetes resource quantity ({@code 10Gi}, {@code 1500M}, {@code 1e3}, {@code 500m}), exact.
 *
 * <p>Parsing and the canonical form follow k8s.io/apimachinery/pkg/api/resource (ParseQuantity and
 * Quantity.String) so that what we print is what the API server prints: {@code 1024Mi} reads back
 * as {@code 1Gi}, {@code 1500M} and {@code 2048} stay as they are. Comparison is by value, never by
 * text: {@code 1Gi} equals {@code 1024Mi}, and {@code 20G} is less than {@code 20Gi}.
 */
public final class Quantity implements Comparable<Quantity> {
    /** The three notations; the format chooses how the canonical form is written. */
    public enum Format { DECIMAL_EXPONENT, BINARY_SI, DECIMAL_SI }

    private static final Map<String, Integer> DECIMAL_SUFFIXES = Map.of(
            "n", -9, "u", -6, "m", -3, "", 0, "k", 3, "M", 6, "G", 9, "T", 12, "P", 15, "E", 18);
    private static final Map<String, Integer> BINARY_SUFFIXES = Map.of(
            "Ki", 10, "Mi", 20, "Gi", 30, "Ti", 40, "Pi", 50, "Ei", 60);
    private static final String SUFFIX_CHARS = "eEinumkKMGTP";
    private static final BigDecimal MAX_INT64 = BigDecimal.valueOf(Long.MAX_VALUE);
    private static final BigDecimal BINARY_STEP = BigDecimal.valueOf(1024);
    private static final BigInteger KIBI = BigInteger.valueOf(1024);
    /** Beyond this a decimal exponent is hostile input, not a volume size; Go would overflow too. */
    private static final int MAX_EXPONENT = 100;
    public static final Quantity ZERO = new Quantity(BigDecimal.ZERO, Format.DECIMAL_SI);

    private final BigDecimal value;
    private final Format format;

    private Quantity(BigDecimal value, Format format) {
        this.value = value;
        this.format = format;
    }

    /** The exact value in base units (bytes for storage). */
    public BigDecimal value() {
        return value;
    }

    public Format format() {
        return format;
    }

    /**
     * Parses any form the API server accepts.
     *
     * @throws IllegalArgumentException naming the text and the expected forms
     */
    public static Quantity parse(String text) {
        if (text == null || text.isEmpty()) {
            throw invalid(text);
        }
        if (text.equals("0")) {
            return ZERO;
        }
        Scanned s = scan(text);
        int base;
        int exponent;
        Format format;
        if (DECIMAL_SUFFIXES.containsKey(s.suffix)) {
            base = 10;
            exponent = DECIMAL_SUFFIXES.get(s.suffix);
            format = Format.DECIMAL_SI;
        } else if (BINARY_SUFFIXES.containsKey(s.suffix)) {
            base = 2;
            exponent = BINARY_SUFFIXES.get(s.suffix);
            format = Format.BINARY_SI;
        } else if (s.suffix.startsWith("e") || s.suffix.startsWith("E")) {
            base = 10;
            exponent = parseExponent(text, s.suffix.substring(1));
            format = Format.DECIMAL_EXPONENT;
        } else {
            throw invalid(text);
        }
        BigDecimal amount = new BigDecimal(new BigInteger(s.num + s.denom), s.denom.length());
        amount = base == 10 ? amount.scaleByPowerOfTen(exponent) : amount.multiply(new BigDecimal(BigInteger.TWO.pow(exponent)));
        boolean negative = !s.positive;
        // Go rounds a non-zero value up (away from zero) to the nano, so that a tiny request still gets something.
        if (amount.scale() > 9) {
            amount = amount.setScale(9, RoundingMode.UP);
        }
        if (format == Format.BINARY_SI) {
            amount = amount.min(MAX_INT64);
        }
        if (format == Format.BINARY_SI && amount.compareTo(BigDecimal.ONE) < 0 && amount.signum() > 0) {
            format = Format.DECIMAL_SI;
        }
        return new Quantity(negative ? amount.negate() : amount, format);
    }

    /** Like {@link #parse} but null for text that is not a quantity. */
    public static Quantity parseOrNull(String text) {
        try {
            return parse(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private record Scanned(boolean positive, String num, String denom, String suffix) {}

    /** Go's parseQuantityString: sign, digits, optional fraction, then a suffix; rejects anything else. */
    private static Scanned scan(String str) {
        boolean positive = true;
        int pos = 0;
        int end = str.length();
        if (str.charAt(0) == '-') {
            positive = false;
            pos++;
        } else if (str.charAt(0) == '+') {
            pos++;
        }
        while (pos < end && str.charAt(pos) == '0') {
            pos++;
        }
        int numStart = pos;
        while (pos < end && isDigit(str.charAt(pos))) {
            pos++;
        }
        String num = str.substring(numStart, pos);
        if (num.isEmpty()) {
            num = "0";
        }
        String denom = "";
        if (pos < end && str.charAt(pos) == '.') {
            pos++;
            int denomStart = pos;
            while (pos < end && isDigit(str.charAt(pos))) {
                pos++;
            }
            denom = str.substring(denomStart, pos);
        }
        int suffixStart = pos;
        while (pos < end && SUFFIX_CHARS.indexOf(str.charAt(pos)) >= 0) {
            pos++;
        }
        if (pos < end && (str.charAt(pos) == '-' || str.charAt(pos) == '+')) {
            pos++;
        }
        while (pos < end && isDigit(str.charAt(pos))) {
            pos++;
        }
        if (pos < end) {
            throw invalid(str);
        }
        return new Scanned(positive, num, denom, str.substring(suffixStart));
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static int parseExponent(String text, String digits) {
        try {
            int e = Integer.parseInt(digits);
            if (Math.abs(e) > MAX_EXPONENT) {
                throw invalid(text);
            }
            return e;
        } catch (NumberFormatException e) {
            throw invalid(text);
        }
    }

    private static IllegalArgumentException invalid(String text) {
        return new IllegalArgumentException("\"" + text + "\" is not a Kubernetes quantity (expected a number with an "
                + "optional suffix such as 10Gi, 500Mi, 20G, 1500M or 1e9)");
    }

    /** The canonical form, as apimachinery's Quantity.String() writes it. */
    @Override
    public String toString() {
        if (value.signum() == 0) {
            return "0";
        }
        Format f = format;
        if (f == Format.BINARY_SI) {
            boolean small = value.abs().compareTo(BINARY_STEP) < 0;
            boolean fractional = value.stripTrailingZeros().scale() > 0;
            if (small || fractional) {
                f = Format.DECIMAL_SI; // don't lose precision, and keep 512 as 512
            }
        }
        if (f == Format.BINARY_SI && value.scale() <= 0 && value.compareTo(MAX_INT64) <= 0 && value.signum() > 0) {
            // the common case (a size in bytes that fits a long) without BigInteger's division: a plan prints thousands
            long n = value.longValueExact();
            int times = 0;
            while (n >= 1024 && (n & 1023) == 0) {
                n >>= 10;
                times++;
            }
            return times == 0 ? Long.toString(n) : n + suffixForBinary(times * 10);
        }
        if (f == Format.BINARY_SI) {
            BigInteger n = value.toBigIntegerExact();
            int times = 0;
            while (n.abs().compareTo(KIBI) >= 0 && n.mod(KIBI).signum() == 0) {
                n = n.divide(KIBI);
                times++;
            }
            String suffix = times == 0 ? "" : suffixForBinary(times * 10);
            return n + suffix;
        }
        BigDecimal stripped = value.stripTrailingZeros();
        BigInteger mantissa = stripped.unscaledValue();
        int exponent = -stripped.scale();
        while (exponent % 3 != 0) {
            mantissa = mantissa.multiply(BigInteger.TEN);
            exponent--;
        }
        if (f == Format.DECIMAL_EXPONENT) {
            return exponent == 0 ? mantissa.toString() : mantissa + "e" + exponent;
        }
        // Go silently writes no suffix for a decimal exponent it has no letter for (beyond E); so do we.
        return mantissa + suffixForDecimal(exponent);
    }

    private static String suffixForBinary(int exponent) {
        return switch (exponent) {
            case 10 -> "Ki";
            case 20 -> "Mi";
            case 30 -> "Gi";
            case 40 -> "Ti";
            case 50 -> "Pi";
            case 60 -> "Ei";
            default -> "";
        };
    }

    private static String suffixForDecimal(int exponent) {
        return DECIMAL_SUFFIXES.entrySet().stream().filter(e -> e.getValue() == exponent)
                .map(Map.Entry::getKey).findFirst().orElse("");
    }

    @Override
    public int compareTo(Quantity other) {
        return value.compareTo(other.value);
    }

    public boolean isLessThan(Quantity other) {
        return compareTo(other) < 0;
    }

    /** Equal by value: {@code 1Gi} equals {@code 1024Mi}. */
    @Override
    public boolean equals(Object o) {
        return o instanceof Quantity q && value.compareTo(q.value) == 0;
    }

    @Override
    public int hashCode() {
        return value.stripTrailingZeros().hashCode();
    }
}
