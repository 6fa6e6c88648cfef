package dev.stsresize.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class KubectlDurationTest {
    static Stream<Arguments> valid() {
        return Stream.of(
                Arguments.of("0", Duration.ZERO),
                Arguments.of("30", Duration.ofSeconds(30)),
                Arguments.of("30s", Duration.ofSeconds(30)),
                Arguments.of("1m", Duration.ofMinutes(1)),
                Arguments.of("1m30s", Duration.ofSeconds(90)),
                Arguments.of("1.5h", Duration.ofMinutes(90)),
                Arguments.of("250ms", Duration.ofMillis(250)),
                Arguments.of("2h45m", Duration.ofMinutes(165)),
                Arguments.of("10us", Duration.ofNanos(10_000)),
                Arguments.of("0s", Duration.ZERO));
    }

    @ParameterizedTest(name = "\"{0}\" is {1}, as kubectl reads it")
    @MethodSource("valid")
    void readsGoDurationsAndBareSeconds(String text, Duration expected) {
        assertThat(KubectlDuration.parse(text)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "\"{0}\" is refused with examples")
    @ValueSource(strings = {"", "m", "1d", "10 s", "-5s", "1m+", "s30"})
    void refusesWhatKubectlRefuses(String text) {
        assertThatThrownBy(() -> KubectlDuration.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invalid duration \"" + text + "\": use a number with a unit, like 30s, 1m, 1m30s or 2h (0 for none)");
    }

    static Stream<Arguments> written() {
        // Go's time.Duration.String for each (go doc time.Duration.String; format.go's examples)
        return Stream.of(
                Arguments.of(Duration.ofMinutes(10), "10m0s"),
                Arguments.of(Duration.ofHours(1), "1h0m0s"),
                Arguments.of(Duration.ofMinutes(90).plusSeconds(5), "1h30m5s"),
                Arguments.of(Duration.ofSeconds(45), "45s"),
                Arguments.of(Duration.ofMillis(1500), "1.5s"),
                Arguments.of(Duration.ofMillis(250), "250ms"),
                Arguments.of(Duration.ofNanos(1500), "1.5µs"),
                Arguments.of(Duration.ofNanos(12), "12ns"),
                Arguments.of(Duration.ZERO, "0s"),
                Arguments.of(Duration.ofSeconds(-90), "-1m30s"));
    }

    @ParameterizedTest(name = "{0} is written \"{1}\", as kubectl writes it")
    @MethodSource("written")
    void writesDurationsAsGoDoes(Duration d, String expected) {
        assertThat(KubectlDuration.format(d)).isEqualTo(expected);
        assertThat(KubectlDuration.parse(expected.replace("-", ""))).as("read back").isEqualTo(d.abs());
    }
}
