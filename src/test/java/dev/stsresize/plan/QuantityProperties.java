package dev.stsresize.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * Quantity against apimachinery's resource.Quantity, for generated texts: the value ParseQuantity gives (worked
 * out here from the text's parts, not by the parser), the canonical form reading back as the same value, and an
 * order that is the values' order.
 */
class QuantityProperties {
    private static final Map<String, BigDecimal> MULTIPLIERS = Map.ofEntries(
            Map.entry("n", new BigDecimal("1e-9")), Map.entry("u", new BigDecimal("1e-6")), Map.entry("m", new BigDecimal("1e-3")),
            Map.entry("", BigDecimal.ONE), Map.entry("k", new BigDecimal("1e3")), Map.entry("M", new BigDecimal("1e6")),
            Map.entry("G", new BigDecimal("1e9")), Map.entry("T", new BigDecimal("1e12")), Map.entry("P", new BigDecimal("1e15")),
            Map.entry("E", new BigDecimal("1e18")),
            Map.entry("Ki", binary(10)), Map.entry("Mi", binary(20)), Map.entry("Gi", binary(30)), Map.entry("Ti", binary(40)),
            Map.entry("Pi", binary(50)), Map.entry("Ei", binary(60)));
    private static final BigDecimal MAX_INT64 = BigDecimal.valueOf(Long.MAX_VALUE);
    /** Past E (10^18) Go's DecimalSI has no suffix and writes none: 1000E prints as 1 (see QuantityTest). */
    private static final BigDecimal NO_SUFFIX_BEYOND = new BigDecimal("1e21");

    private static BigDecimal binary(int exponent) {
        return new BigDecimal(BigInteger.TWO.pow(exponent));
    }

    /** A quantity as its parts, so the expected value is known without parsing. */
    record Written(String sign, String zeros, String whole, String fraction, String suffix) {
        String text() {
            return sign + zeros + whole + (fraction == null ? "" : "." + fraction) + suffix;
        }

        /** ParseQuantity's value: the number times the suffix, rounded away from zero to the nano, BinarySI capped at int64. */
        BigDecimal expectedValue() {
            String digits = (whole.isEmpty() ? "0" : whole) + (fraction == null || fraction.isEmpty() ? "" : "." + fraction);
            BigDecimal amount = new BigDecimal(digits).multiply(multiplier());
            if (amount.scale() > 9) {
                amount = amount.setScale(9, RoundingMode.UP);
            }
            if (suffix.endsWith("i")) {
                amount = amount.min(MAX_INT64);
            }
            return sign.equals("-") ? amount.negate() : amount;
        }

        private BigDecimal multiplier() {
            if (MULTIPLIERS.containsKey(suffix)) {
                return MULTIPLIERS.get(suffix);
            }
            return BigDecimal.ONE.scaleByPowerOfTen(Integer.parseInt(suffix.substring(1))); // e3, E-2, e+5
        }
    }

    @Provide
    Arbitrary<Written> written() {
        Arbitrary<String> sign = Arbitraries.of("", "", "+", "-");
        Arbitrary<String> zeros = Arbitraries.of("", "", "", "0", "00");
        Arbitrary<String> whole = Arbitraries.strings().numeric().ofMinLength(0).ofMaxLength(20);
        Arbitrary<String> fraction = Arbitraries.strings().numeric().ofMinLength(0).ofMaxLength(12).injectNull(0.6);
        Arbitrary<String> exponent = Combinators.combine(Arbitraries.of("e", "E"), Arbitraries.of("", "+"),
                Arbitraries.integers().between(-30, 30)).as((letter, plus, e) -> letter + (e >= 0 ? plus : "") + e);
        Arbitrary<String> suffix = Arbitraries.frequencyOf(
                Tuple.of(6, Arbitraries.of(MULTIPLIERS.keySet().stream().sorted().toList())), Tuple.of(2, exponent));
        return Combinators.combine(sign, zeros, whole, fraction, suffix).as(Written::new).filter(w -> !w.text().isEmpty());
    }

    @Provide
    Arbitrary<Quantity> quantities() {
        return written().map(w -> Quantity.parse(w.text()));
    }

    @Property(tries = 400)
    void parsesToTheValueApimachineryGives(@ForAll("written") Written w) {
        assertThat(Quantity.parse(w.text()).value()).as(w.text()).isEqualByComparingTo(w.expectedValue());
    }

    @Property(tries = 400)
    void itsCanonicalFormReadsBackAsTheSameValueAndIsAFixedPoint(@ForAll("written") Written w) {
        Quantity q = Quantity.parse(w.text());
        Assume.that(q.value().abs().compareTo(NO_SUFFIX_BEYOND) < 0);
        Quantity back = Quantity.parse(q.toString());
        assertThat(back).as(w.text() + " written " + q).isEqualTo(q);
        assertThat(back.toString()).as("the canonical form of " + w.text() + " is canonical").isEqualTo(q.toString());
    }

    @Property(tries = 400)
    void ordersAsTheValuesDoAndEqualValuesAreEqual(@ForAll("quantities") Quantity a, @ForAll("quantities") Quantity b) {
        int byValue = Integer.signum(a.value().compareTo(b.value()));
        assertThat(Integer.signum(a.compareTo(b))).isEqualTo(byValue);
        assertThat(Integer.signum(b.compareTo(a))).isEqualTo(-byValue);
        assertThat(a.isLessThan(b)).isEqualTo(byValue < 0);
        assertThat(a.equals(b)).isEqualTo(byValue == 0);
        if (byValue == 0) {
            assertThat(a.hashCode()).isEqualTo(b.hashCode());
        }
    }

    @Property(tries = 300)
    void theSameValueInAnotherNotationIsEqual(@ForAll("written") Written w) {
        Quantity q = Quantity.parse(w.text());
        Assume.that(q.value().stripTrailingZeros().scale() <= 0); // whole numbers are written in every notation
        Quantity plain = Quantity.parse(q.value().toBigIntegerExact().toString());
        Quantity exponent = Quantity.parse(q.value().toBigIntegerExact() + "e0");
        assertThat(plain).isEqualTo(q).hasSameHashCodeAs(q);
        assertThat(exponent).isEqualTo(q).hasSameHashCodeAs(q);
        assertThat(plain.compareTo(q)).isZero();
    }

    /** Any text at all: a quantity, or the one IllegalArgumentException naming it, never another exception. */
    @Property(tries = 500)
    void refusesEveryOtherTextWithOneClearError(@ForAll("noise") String text) {
        Quantity q = Quantity.parseOrNull(text);
        if (q == null) {
            assertThatThrownBy(() -> Quantity.parse(text)).isExactlyInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("is not a Kubernetes quantity");
        } else {
            assertThat(Quantity.parse(text)).isEqualTo(q);
        }
    }

    @Provide
    Arbitrary<String> noise() {
        return Arbitraries.strings().withChars("0123456789.+-eEinumkKMGTP xi_").ofMaxLength(14);
    }
}
