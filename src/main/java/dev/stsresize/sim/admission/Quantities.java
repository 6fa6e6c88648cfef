package dev.stsresize.sim.admission;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Map;

/**
 * Kubernetes quantities in apimachinery's canonical form ({@code resource.Quantity.String()}):
 * {@code 1024Mi} prints {@code 1Gi}, {@code 1.5Gi} prints {@code 1536Mi}, {@code 1000} prints
 * {@code 1k}, {@code 0.5} prints {@code 500m}, {@code 1500M} and {@code 2048} stay. The format
 * (binary, decimal, exponent) is the one the input was written in, as apimachinery keeps it.
 * client-java's Quantity differs on fractional binary values, hence this class.
 */
public final class Quantities {
    private static final Map<String, Integer> BINARY = Map.of("Ki", 1, "Mi", 2, "Gi", 3, "Ti", 4, "Pi", 5, "Ei", 6);
    private static final Map<String, Integer> DECIMAL =
            Map.of("n", -9, "u", -6, "m", -3, "", 0, "k", 3, "M", 6, "G", 9, "T", 12, "P", 15, "E", 18);
    private static final String[] BINARY_SUFFIX = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    private static final BigInteger K1024 = BigInteger.valueOf(1024);

    private Quantities() {}

    enum Format { BINARY, DECIMAL, EXPONENT }

    record Parsed(BigDecimal value, Format format) {}

    /** The value of a quantity; throws IllegalArgumentException on anything apimachinery refuses. */
    public static BigDecimal value(String q) {
        return parse(q).value();
    }

    public static boolean isValid(String q) {
        try {
            parse(q);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    static Parsed parse(String q) {
        String s = q.trim();
        if (s.isEmpty() || !s.equals(q)) {
            throw new IllegalArgumentException("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
        }
        int i = 0;
        if (s.charAt(0) == '+' || s.charAt(0) == '-') {
            i++;
        }
        while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
            i++;
        }
        String num = s.substring(0, i);
        String suffix = s.substring(i);
        BigDecimal base;
        try {
            base = new BigDecimal(num);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
        }
        if (BINARY.containsKey(suffix)) {
            return new Parsed(base.multiply(new BigDecimal(K1024.pow(BINARY.get(suffix)))), Format.BINARY);
        }
        if (DECIMAL.containsKey(suffix)) {
            return new Parsed(base.scaleByPowerOfTen(DECIMAL.get(suffix)), Format.DECIMAL);
        }
        if ((suffix.startsWith("e") || suffix.startsWith("E")) && suffix.length() > 1) {
            try {
                return new Parsed(base.scaleByPowerOfTen(Integer.parseInt(suffix.substring(1))), Format.EXPONENT);
            } catch (NumberFormatException e) {
                // falls through to the refusal below
            }
        }
        throw new IllegalArgumentException("unable to parse quantity's suffix");
    }

    /** The canonical string of a quantity (apimachinery's Quantity.String()). */
    public static String canonical(String q) {
        Parsed p = parse(q);
        // apimachinery keeps nano precision, rounding up what is below it
        BigDecimal v = p.value().setScale(9, RoundingMode.CEILING).stripTrailingZeros();
        if (v.signum() == 0) {
            return "0";
        }
        if (p.format() == Format.BINARY && v.abs().compareTo(BigDecimal.valueOf(1024)) >= 0 && isInteger(v)) {
            BigInteger n = v.toBigIntegerExact();
            int k = 0;
            while (k < 6 && n.mod(K1024).signum() == 0) {
                n = n.divide(K1024);
                k++;
            }
            return n + BINARY_SUFFIX[k];
        }
        // decimal: the largest exponent, a multiple of 3, that keeps the mantissa an integer
        int exp = -9;
        BigDecimal mantissa = v.scaleByPowerOfTen(9);
        while (exp < 18 && isInteger(mantissa.scaleByPowerOfTen(-3))) {
            mantissa = mantissa.scaleByPowerOfTen(-3);
            exp += 3;
        }
        String m = mantissa.stripTrailingZeros().toPlainString();
        if (p.format() == Format.EXPONENT) {
            return exp == 0 ? m : m + "e" + exp;
        }
        String suffix = switch (exp) {
            case -9 -> "n";
            case -6 -> "u";
            case -3 -> "m";
            case 3 -> "k";
            case 6 -> "M";
            case 9 -> "G";
            case 12 -> "T";
            case 15 -> "P";
            case 18 -> "E";
            default -> "";
        };
        return m + suffix;
    }

    private static boolean isInteger(BigDecimal v) {
        return v.signum() == 0 || v.stripTrailingZeros().scale() <= 0;
    }

    public static int compare(String a, String b) {
        return value(a).compareTo(value(b));
    }
}
