package dev.stsresize.sim.admission;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Map;

/**
 * A resource quantity as kube-apiserver parses and prints it: the simulator's own port of
 * k8s.io/apimachinery/pkg/api/resource/quantity.go ({@code ParseQuantity}, {@code parseQuantityString},
 * {@code CanonicalizeBytes}) and suffix.go, step by step, so the oracle of the plugin's tests does not
 * share the plugin's parser ({@code plan.Quantity}) and its mistakes. Tested against the tables of
 * apimachinery's quantity_test.go ({@code ParsedQuantityTest}).
 *
 * <p>Where apimachinery keeps an int64 fast path, only the cases where it changes the outcome are kept
 * (a bare suffix such as {@code Gi} is 0 there); the value is otherwise exact, as inf.Dec's.
 */
record ParsedQuantity(BigDecimal value, Format format) {
    enum Format { DECIMAL_EXPONENT, BINARY_SI, DECIMAL_SI }

    /** suffix.go: the decimal SI suffixes and their powers of ten. */
    private static final Map<String, Integer> DECIMAL = Map.of(
            "n", -9, "u", -6, "m", -3, "", 0, "k", 3, "M", 6, "G", 9, "T", 12, "P", 15, "E", 18);
    /** suffix.go: the binary SI suffixes and their powers of two. */
    private static final Map<String, Integer> BINARY = Map.of(
            "Ki", 10, "Mi", 20, "Gi", 30, "Ti", 40, "Pi", 50, "Ei", 60);
    private static final String SUFFIX_CHARS = "eEinumkKMGTP";
    /** quantity.go maxAllowed: a BinarySI amount is capped at the largest int64. */
    private static final BigDecimal MAX_ALLOWED = BigDecimal.valueOf(Long.MAX_VALUE);
    private static final BigDecimal MINUS_1024 = BigDecimal.valueOf(-1024);
    private static final BigDecimal PLUS_1024 = BigDecimal.valueOf(1024);
    private static final BigInteger KIBI = BigInteger.valueOf(1024);
    /** quantity.go maxInt64Factors: how many decimal digits the int64 fast path takes. */
    private static final int MAX_INT64_FACTORS = 18;
    /** Nano: apimachinery rounds every non-zero amount up to a multiple of 10^-9. */
    private static final int NANO_SCALE = 9;

    /** {@code ParseQuantity}; throws IllegalArgumentException where it returns an error. */
    static ParsedQuantity parse(String str) {
        if (str == null || str.isEmpty()) {
            throw new IllegalArgumentException("quantities must match the regular expression");
        }
        Parts p = Parts.of(str);
        Suffix s = Suffix.interpret(p.suffix);
        ParsedQuantity fast = fastPath(p, s);
        if (fast != null) {
            return fast;
        }
        BigDecimal amount;
        try {
            amount = new BigDecimal(p.value.endsWith(".") ? p.value + "0" : p.value.startsWith("-.") || p.value.startsWith("+.")
                    ? p.value.charAt(0) + "0" + p.value.substring(1) : p.value.startsWith(".") ? "0" + p.value : p.value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("unable to parse quantity's numeric part", e); // ErrNumeric
        }
        amount = s.base == 10 ? amount.scaleByPowerOfTen(s.exponent)
                : amount.multiply(new BigDecimal(BigInteger.ONE.shiftLeft(s.exponent)));
        int sign = amount.signum();
        amount = amount.abs();
        // "if you want some resources, you should get some resources": round up to nano, away from zero
        if (sign != 0 && amount.scale() > NANO_SCALE) {
            amount = amount.setScale(NANO_SCALE, RoundingMode.UP);
        }
        Format format = s.format;
        if (format == Format.BINARY_SI && amount.compareTo(MAX_ALLOWED) > 0) {
            amount = MAX_ALLOWED;
        }
        if (format == Format.BINARY_SI && amount.signum() > 0 && amount.compareTo(BigDecimal.ONE) < 0) {
            format = Format.DECIMAL_SI; // "this avoids rounding and hopefully confusion, too"
        }
        return new ParsedQuantity(sign < 0 ? amount.negate() : amount, format);
    }

    /**
     * The int64 path of ParseQuantity, taken when the digits fit: its outcome only differs from the exact
     * one for an empty numerator (value "" would not parse as a number; "0" does here).
     */
    private static ParsedQuantity fastPath(Parts p, Suffix s) {
        int precision;
        int scale;
        long mantissa = 1;
        if (s.format == Format.BINARY_SI) {
            scale = 0;
            if (s.exponent >= 0 && p.denom.isEmpty()) {
                mantissa = 1L << s.exponent;
                precision = 15 - p.num.length() - (int) ((float) s.exponent * 3 / 10) - 1;
            } else {
                precision = -1;
            }
        } else {
            scale = s.exponent;
            precision = MAX_INT64_FACTORS - (p.num.length() + p.denom.length());
        }
        if (precision < 0) {
            return null;
        }
        scale -= p.denom.length();
        if (scale < -NANO_SCALE) {
            return null;
        }
        long value;
        try {
            value = Long.parseLong(p.num + p.denom);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("unable to parse quantity's numeric part", e);
        }
        long result;
        try {
            result = Math.multiplyExact(value, mantissa);
        } catch (ArithmeticException overflow) {
            return null;
        }
        return new ParsedQuantity(BigDecimal.valueOf(p.positive ? result : -result, -scale), s.format);
    }

    /** {@code CanonicalizeBytes}: the text kube-apiserver writes back for this quantity. */
    String canonical() {
        if (value.signum() == 0) {
            return "0";
        }
        Format f = format;
        if (f == Format.BINARY_SI) {
            if (value.compareTo(MINUS_1024) > 0 && value.compareTo(PLUS_1024) < 0) {
                f = Format.DECIMAL_SI;
            } else if (value.stripTrailingZeros().scale() > 0) {
                f = Format.DECIMAL_SI; // "don't lose precision-- show as DecimalSI"
            }
        }
        if (f == Format.BINARY_SI) {
            BigInteger amount = value.toBigIntegerExact();
            int exponent = 0;
            while (amount.mod(KIBI).signum() == 0 && amount.signum() != 0) {
                amount = amount.divide(KIBI);
                exponent++;
            }
            String suffix = switch (exponent) {
                case 0 -> "";
                case 1 -> "Ki";
                case 2 -> "Mi";
                case 3 -> "Gi";
                case 4 -> "Ti";
                case 5 -> "Pi";
                case 6 -> "Ei";
                default -> null;
            };
            // past Ei there is no suffix: an exact decimal instead (quantity_test.go, TestBinarySIPastEiArithmeticRoundTrip)
            return suffix != null ? amount + suffix : decimal(value, Format.DECIMAL_EXPONENT);
        }
        return decimal(value, f);
    }

    /** {@code AsCanonicalBytes} then the decimal suffix: the exponent a multiple of 3, the mantissa an integer. */
    private static String decimal(BigDecimal value, Format f) {
        BigDecimal stripped = value.stripTrailingZeros();
        BigInteger mantissa = stripped.unscaledValue();
        long exponent = -(long) stripped.scale();
        while (exponent % 3 != 0) {
            mantissa = mantissa.multiply(BigInteger.TEN);
            exponent--;
        }
        if (f == Format.DECIMAL_SI) {
            for (Map.Entry<String, Integer> e : DECIMAL.entrySet()) {
                if (e.getValue() == exponent) {
                    return mantissa + e.getKey();
                }
            }
        }
        // DecimalExponent, and DecimalSI beyond E or below n (quantity_test.go: 1000E prints 1e21)
        return exponent == 0 ? mantissa.toString() : mantissa + "e" + exponent;
    }

    /** {@code parseQuantityString}: sign, numerator, denominator and suffix, or an error. */
    private record Parts(boolean positive, String value, String num, String denom, String suffix) {
        static Parts of(String str) {
            int pos = 0;
            int end = str.length();
            boolean positive = true;
            if (str.charAt(0) == '-') {
                positive = false;
                pos++;
            } else if (str.charAt(0) == '+') {
                pos++;
            }
            while (pos < end && str.charAt(pos) == '0') {
                pos++;
            }
            if (pos >= end) {
                return new Parts(positive, "0", "0", "", "");
            }
            int numStart = pos;
            while (pos < end && isDigit(str.charAt(pos))) {
                pos++;
            }
            String num = str.substring(numStart, pos);
            if (pos >= end) {
                return new Parts(positive, str, num, "", "");
            }
            if (num.isEmpty()) {
                num = "0";
            }
            String denom = "";
            if (str.charAt(pos) == '.') {
                pos++;
                int denomStart = pos;
                while (pos < end && isDigit(str.charAt(pos))) {
                    pos++;
                }
                denom = str.substring(denomStart, pos);
                if (pos >= end) {
                    return new Parts(positive, str, num, denom, "");
                }
            }
            String value = str.substring(0, pos);
            int suffixStart = pos;
            while (pos < end && SUFFIX_CHARS.indexOf(str.charAt(pos)) >= 0) {
                pos++;
            }
            if (pos >= end) {
                return new Parts(positive, value, num, denom, str.substring(suffixStart));
            }
            if (str.charAt(pos) == '-' || str.charAt(pos) == '+') {
                pos++;
            }
            while (pos < end && isDigit(str.charAt(pos))) {
                pos++;
            }
            if (pos < end) {
                throw new IllegalArgumentException("quantities must match the regular expression"); // ErrFormatWrong
            }
            return new Parts(positive, value, num, denom, str.substring(suffixStart));
        }

        private static boolean isDigit(char c) {
            return c >= '0' && c <= '9';
        }
    }

    /** suffix.go {@code interpret}: base, exponent and format of a suffix, or an error (ErrSuffix). */
    private record Suffix(int base, int exponent, Format format) {
        static Suffix interpret(String s) {
            Integer dec = DECIMAL.get(s);
            if (dec != null) {
                return new Suffix(10, dec, Format.DECIMAL_SI);
            }
            Integer bin = BINARY.get(s);
            if (bin != null) {
                return new Suffix(2, bin, Format.BINARY_SI);
            }
            if (s.length() > 1 && (s.charAt(0) == 'e' || s.charAt(0) == 'E')) {
                try {
                    long parsed = Long.parseLong(s.substring(1));
                    // an exponent outside the int32 scale is refused, not truncated (quantity_test.go)
                    if (parsed > Integer.MAX_VALUE || parsed < -Integer.MAX_VALUE) {
                        throw new IllegalArgumentException("unable to parse quantity's suffix");
                    }
                    return new Suffix(10, (int) parsed, Format.DECIMAL_EXPONENT);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("unable to parse quantity's suffix", e);
                }
            }
            throw new IllegalArgumentException("unable to parse quantity's suffix");
        }
    }
}
