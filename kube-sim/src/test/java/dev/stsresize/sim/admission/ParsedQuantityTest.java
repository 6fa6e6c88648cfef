package dev.stsresize.sim.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The simulator's quantity parser against the tables of k8s.io/apimachinery/pkg/api/resource/quantity_test.go
 * (kubernetes/kubernetes, staging; read through the search tool): TestQuantityParse (value and format, also
 * with a sign in front), its invalid inputs, TestQuantityString (the canonical text, and the alternate
 * spelling that must print as it) and TestQuantityParseEmit.
 */
class ParsedQuantityTest {
    @ParameterizedTest(name = "{0} is {1} ({2})")
    @CsvSource({
        "0, 0, DECIMAL_SI",
        "0n, 0, DECIMAL_SI",
        "0u, 0, DECIMAL_SI",
        "0m, 0, DECIMAL_SI",
        "0Ki, 0, BINARY_SI",
        "0k, 0, DECIMAL_SI",
        "0Mi, 0, BINARY_SI",
        "0M, 0, DECIMAL_SI",
        "0Gi, 0, BINARY_SI",
        "0G, 0, DECIMAL_SI",
        "0Ti, 0, BINARY_SI",
        "0T, 0, DECIMAL_SI",
        "1, 1, DECIMAL_SI",
        "1Ki, 1024, BINARY_SI",
        "8Ki, 8192, BINARY_SI",
        "7Mi, 7340032, BINARY_SI",
        "6Gi, 6442450944, BINARY_SI",
        "5Ti, 5497558138880, BINARY_SI",
        "4Pi, 4503599627370496, BINARY_SI",
        "3Ei, 3458764513820540928, BINARY_SI",
        "10Ti, 10995116277760, BINARY_SI",
        "100Ti, 109951162777600, BINARY_SI",
        "5n, 0.000000005, DECIMAL_SI",
        "4u, 0.000004, DECIMAL_SI",
        "3m, 0.003, DECIMAL_SI",
        "9, 9, DECIMAL_SI",
        "8k, 8000, DECIMAL_SI",
        "50k, 50000, DECIMAL_SI",
        "7M, 7000000, DECIMAL_SI",
        "6G, 6000000000, DECIMAL_SI",
        "5T, 5000000000000, DECIMAL_SI",
        "40T, 40000000000000, DECIMAL_SI",
        "300T, 300000000000000, DECIMAL_SI",
        "2P, 2000000000000000, DECIMAL_SI",
        "1E, 1000000000000000000, DECIMAL_SI",
        "1E-3, 0.001, DECIMAL_EXPONENT",
        "1e3, 1000, DECIMAL_EXPONENT",
        "1E6, 1000000, DECIMAL_EXPONENT",
        "1e9, 1000000000, DECIMAL_EXPONENT",
        "1E12, 1000000000000, DECIMAL_EXPONENT",
        "1e15, 1000000000000000, DECIMAL_EXPONENT",
        "1E18, 1000000000000000000, DECIMAL_EXPONENT",
        "1e14, 100000000000000, DECIMAL_EXPONENT",
        "1e13, 10000000000000, DECIMAL_EXPONENT",
        "100.035k, 100035, DECIMAL_SI",
        "0.001, 0.001, DECIMAL_SI",
        "0.0005k, 0.5, DECIMAL_SI",
        "0.005, 0.005, DECIMAL_SI",
        "0.05, 0.05, DECIMAL_SI",
        "0.5, 0.5, DECIMAL_SI",
        "0.00050k, 0.5, DECIMAL_SI",
        "0.00500, 0.005, DECIMAL_SI",
        "0.05000, 0.05, DECIMAL_SI",
        "0.50000, 0.5, DECIMAL_SI",
        "0.5e0, 0.5, DECIMAL_EXPONENT",
        "0.5e-1, 0.05, DECIMAL_EXPONENT",
        "0.5e-2, 0.005, DECIMAL_EXPONENT",
        "10.035M, 10035000, DECIMAL_SI",
        "1.2e3, 1200, DECIMAL_EXPONENT",
        "1.3E+6, 1300000, DECIMAL_EXPONENT",
        "1.40e9, 1400000000, DECIMAL_EXPONENT",
        "1.53E12, 1530000000000, DECIMAL_EXPONENT",
        "1.6e15, 1600000000000000, DECIMAL_EXPONENT",
        "1.7E18, 1700000000000000000, DECIMAL_EXPONENT",
        "9.01, 9.01, DECIMAL_SI",
        "8.1k, 8100, DECIMAL_SI",
        "7.123456M, 7123456, DECIMAL_SI",
        "6.987654321G, 6987654321, DECIMAL_SI",
        "5.444T, 5444000000000, DECIMAL_SI",
        "40.1T, 40100000000000, DECIMAL_SI",
        "300.2T, 300200000000000, DECIMAL_SI",
        "2.5P, 2500000000000000, DECIMAL_SI",
        "1.01E, 1010000000000000000, DECIMAL_SI",
        "3.001n, 0.000000004, DECIMAL_SI",
        "1.1E-9, 0.000000002, DECIMAL_EXPONENT",
        "0.0000000001, 0.000000001, DECIMAL_SI",
        "0.0000000005, 0.000000001, DECIMAL_SI",
        "0.00000000050, 0.000000001, DECIMAL_SI",
        "0.5e-9, 0.000000001, DECIMAL_EXPONENT",
        "0.9n, 0.000000001, DECIMAL_SI",
        "0.00000012345, 0.000000124, DECIMAL_SI",
        "0.00000012354, 0.000000124, DECIMAL_SI",
        "9Ei, 9223372036854775807, BINARY_SI",
        "9223372036854775807Ki, 9223372036854775807, BINARY_SI",
        "12E, 12000000000000000000, DECIMAL_SI",
        "100.035Ki, 102435.84, BINARY_SI",
        "0.5Mi, 524288, BINARY_SI",
        "0.05Gi, 53687091.2, BINARY_SI",
        "0.025Ti, 27487790694.4, BINARY_SI",
        "0.000000000001Ki, 0.000000002, DECIMAL_SI",
        ".001, 0.001, DECIMAL_SI",
        ".0001k, 0.1, DECIMAL_SI",
        "1., 1, DECIMAL_SI",
        "1.G, 1000000000, DECIMAL_SI",
    })
    void parsesAsTestQuantityParse(String in, BigDecimal value, ParsedQuantity.Format format) {
        assertThat(ParsedQuantity.parse(in).value()).isEqualByComparingTo(value);
        assertThat(ParsedQuantity.parse(in).format()).isEqualTo(format);
        assertThat(ParsedQuantity.parse("+" + in).value()).isEqualByComparingTo(value);
        assertThat(ParsedQuantity.parse("-" + in).value()).isEqualByComparingTo(value.negate());
        assertThat(ParsedQuantity.parse("-" + in).format()).isEqualTo(format);
    }

    @ParameterizedTest(name = "{0} is refused")
    @ValueSource(strings = {"", "1.1.M", "1+1.0M", "0.1mi", "0.1am", "aoeu", ".5i", "1i", "-3.01i", "-3.01e-",
        "1e4294967297", " 1", "1 "})
    void refusesTheInvalidOnesOfTestQuantityParse(String in) {
        assertThatThrownBy(() -> ParsedQuantity.parse(in)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest(name = "{0} prints as itself, and {1} prints as {0}")
    @CsvSource({
        "1Gi, 1024Mi", "300Mi, 307200Ki", "6Ki, ''", "1001Gi, 1025024Mi", "1Ti, 1024Gi", "5, 5000m", "500m, 0.5",
        "1G, 1000M", "1G, 0.001T", "1m, 1000u", "80m, ''", "1080m, 1.08", "1080m, 1080000000n", "300M, ''", "1T, ''",
        "1E, ''", "1e21, 1000E", "5e21, 5000E", "1e24, 1000000E", "1234567M, ''", "1234567m, ''", "3k, ''", "1025, ''",
        "0, ''", "1e9, .001e12", "1e-3, 0.001e0", "1e-9, 1000e-12", "80e-3, ''", "300e6, ''", "1e12, ''", "1e3, ''",
        "3e3, ''", "0, 00", "1n, ''", "80n, ''", "1080n, ''", "1u, ''", "80u, ''", "1080u, ''",
    })
    void printsAsTestQuantityString(String canonical, String alternate) {
        assertThat(ParsedQuantity.parse(canonical).canonical()).isEqualTo(canonical);
        if (!alternate.isEmpty()) {
            assertThat(ParsedQuantity.parse(alternate).canonical()).isEqualTo(canonical);
        }
        if (!canonical.equals("0")) {
            assertThat(ParsedQuantity.parse("-" + canonical).canonical()).isEqualTo("-" + canonical);
        }
    }

    @ParameterizedTest(name = "{0} prints as {1}")
    @CsvSource({"1Ki, 1Ki", "1Mi, 1Mi", "1Gi, 1Gi", "1024Mi, 1Gi", "1000M, 1G", ".001Ki, 1024m", ".000001Ki, 1024u",
        ".000000001Ki, 1024n", ".000000000001Ki, 2n",
        // what the plugin's tests see most: claims as kube-apiserver writes them back
        "1.5Gi, 1536Mi", "0.5Gi, 512Mi", "1500M, 1500M", "2048, 2048", "1000, 1k", "Gi, 0", "9Ei, 9223372036854775807"})
    void emitsAsTestQuantityParseEmit(String in, String canonical) {
        assertThat(ParsedQuantity.parse(in).canonical()).isEqualTo(canonical);
    }
}
