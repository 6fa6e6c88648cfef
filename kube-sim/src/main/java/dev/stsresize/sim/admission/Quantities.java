package dev.stsresize.sim.admission;

import java.math.BigDecimal;

/**
 * Kubernetes quantities as the simulated API server needs them: their value and apimachinery's
 * canonical form ({@code 1024Mi} prints {@code 1Gi}, {@code 1.5Gi} prints {@code 1536Mi}, {@code 1500M}
 * and {@code 2048} stay). The parsing and printing are {@link ParsedQuantity}'s, the simulator's own port
 * of apimachinery's resource.Quantity (not the plugin's, whose mistakes it must be able to catch); the
 * error text is the decoder's regular-expression message, which kube-apiserver puts in its 400.
 */
public final class Quantities {
    private static final String DECODER_ERROR =
            "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

    private Quantities() {}

    /** The value of a quantity; throws IllegalArgumentException on anything apimachinery refuses. */
    public static BigDecimal value(String q) {
        return parse(q).value();
    }

    public static boolean isValid(String q) {
        if (q == null) {
            return false;
        }
        try {
            ParsedQuantity.parse(q);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The canonical string of a quantity (apimachinery's Quantity.String()). */
    public static String canonical(String q) {
        return parse(q).canonical();
    }

    public static int compare(String a, String b) {
        return parse(a).value().compareTo(parse(b).value());
    }

    private static ParsedQuantity parse(String q) {
        try {
            return ParsedQuantity.parse(q);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(DECODER_ERROR, e);
        }
    }
}
