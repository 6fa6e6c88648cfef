package dev.stsresize.usage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.plan.UnmeasuredClaim;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each claim of a StatefulSet's running ordinals that no summary measured is told the reason the operator can act on. */
class UnmeasuredTest {
    static final UsageReport.Target DB = new UsageReport.Target("ns", "db", Map.of("data", "10Gi"), 0, 1);

    static Stream<Arguments> pods() {
        return Stream.of(
                Arguments.of("no pod of the ordinal", List.of(), Map.of(), Map.of(), "pod db-0 does not exist"),
                Arguments.of("a pod not yet scheduled", List.of(new Unmeasured.Placed("db-0", "", "Pending", false)), Map.of(), Map.of(),
                        "pod db-0 is not scheduled to a node"),
                Arguments.of("a pod scheduled, not running", List.of(new Unmeasured.Placed("db-0", "n1", "Pending", false)), Map.of(),
                        Map.of(), "pod db-0 is Pending"),
                Arguments.of("a pod being deleted", List.of(new Unmeasured.Placed("db-0", "n1", "Running", true)), Map.of(), Map.of(),
                        "pod db-0 is being deleted"),
                Arguments.of("its node did not answer", List.of(new Unmeasured.Placed("db-0", "n1", "Running", false)),
                        Map.of("n1", "it did not answer within 5s"), Map.of(), "node n1's summary was not read: it did not answer within 5s"),
                Arguments.of("its volume listed without availableBytes", List.of(new Unmeasured.Placed("db-0", "n1", "Running", false)),
                        Map.of(), Map.of("ns/data-db-0", "the kubelet's summary has no usable availableBytes for it"),
                        "the kubelet's summary has no usable availableBytes for it"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pods")
    void eachClaimIsToldWhy(String row, List<Unmeasured.Placed> pods, Map<String, String> unread, Map<String, String> unusable,
            String reason) {
        Unmeasured u = new Unmeasured(true, Map.of("ns/db", pods), false, unread, unusable);
        assertThat(u.of(List.of(DB), Set.of())).as(row).isEqualTo(Map.of("ns/db", List.of(new UnmeasuredClaim("data-db-0", reason))));
    }

    @org.junit.jupiter.api.Test
    void onlyTheOrdinalsThatRunAndNothingWhenAFailureIsSaidOnceAlready() {
        UsageReport.Target scaled = new UsageReport.Target("ns", "db", Map.of("data", "10Gi"), 2, 2);
        List<Unmeasured.Placed> pods = List.of(new Unmeasured.Placed("db-2", "n1", "Running", false),
                new Unmeasured.Placed("db-3", "n1", "Running", false));
        Unmeasured u = new Unmeasured(true, Map.of("ns/db", pods), false, Map.of(), Map.of());
        assertThat(u.of(List.of(scaled), Set.of("ns/data-db-2")).get("ns/db")).extracting(UnmeasuredClaim::claim)
                .as("ordinals 2 and 3 (ordinals.start 2); db-0 and db-1 are not expected").containsExactly("data-db-3");
        assertThat(new Unmeasured(true, Map.of("ns/db", pods), true, Map.of(), Map.of()).of(List.of(scaled), Set.of()))
                .as("nodes/proxy forbidden: its one note says it").isEmpty();
        assertThat(new Unmeasured(false, Map.of(), false, Map.of(), Map.of()).of(List.of(scaled), Set.of()))
                .as("pods not listed: its one note says it").isEmpty();
    }
}
