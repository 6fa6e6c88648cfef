package dev.stsresize.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.plan.ClaimState;
import dev.stsresize.plan.ClaimUsage;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Plan;
import dev.stsresize.plan.Quantity;
import dev.stsresize.plan.StatefulSetUsage;
import dev.stsresize.plan.Verdict;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The downtime paragraph a copy plan's text and JSON carry. */
class CopyDowntimeTest {
    private static final long GI = 1024L * 1024 * 1024;

    private static ClaimState claim(int ordinal, boolean scaledAway, boolean copy) {
        ClaimState c = new ClaimState("data-web-" + ordinal, "data", ordinal, Quantity.parse("1Gi"), Quantity.parse("1Gi"), "Bound",
                "local-path", false, Quantity.parse("2Gi"), scaledAway, copy);
        return copy ? c.toCopy() : c;
    }

    private static Decision copyPlan(ClaimState... claims) {
        return new Plan("files", "web", Verdict.COPY, List.of(), List.of(claims), List.of(), "");
    }

    private static Optional<StatefulSetUsage> used(long... bytesPerOrdinal) {
        List<ClaimUsage> claims = new java.util.ArrayList<>();
        for (int i = 0; i < bytesPerOrdinal.length; i++) {
            claims.add(new ClaimUsage("data-web-" + i, bytesPerOrdinal[i], 4 * GI, 4 * GI - bytesPerOrdinal[i], Optional.empty()));
        }
        return Optional.of(new StatefulSetUsage("files", "web", claims, List.of()));
    }

    static Stream<Arguments> rows() {
        String each = "downtime: one pod at a time, each down from its eviction until its copy, rebind and restart end";
        return Stream.of(
                Arguments.of("two replicas, usage unknown: depends on the data", copyPlan(claim(0, false, true), claim(1, false, true)),
                        Optional.empty(), each + "; how long each copy takes depends on the data (its usage is not known here, or is its node's shared disk)"),
                Arguments.of("usage known: each copy estimated at the stated rate, rounded up",
                        copyPlan(claim(0, false, true), claim(1, false, true)), used(GI / 2, 3 * GI),
                        each + "; each copy, estimated from the used bytes at 50Mi/s: data-web-0 512Mi used, about 11s,"
                                + " data-web-1 3Gi used, about 1m"),
                Arguments.of("usage of one claim only: the other depends on the data",
                        copyPlan(claim(0, false, true), claim(1, false, true)), used(50L * 1024 * 1024),
                        each + "; each copy, estimated from the used bytes at 50Mi/s: data-web-0 50Mi used, about 1s;"
                                + " for data-web-1 it depends on the data (its usage is not known here, or is its node's shared disk)"),
                Arguments.of("a file system shared with the node (hostpath, local-path): its used bytes are the node's, no estimate",
                        copyPlan(claim(0, false, true), claim(1, false, true)), Optional.of(new StatefulSetUsage("files", "web",
                                List.of(new ClaimUsage("data-web-0", 27 * GI, 252 * GI, 74 * GI, Optional.empty(), 2 * GI)), List.of())),
                        each + "; how long each copy takes depends on the data (its usage is not known here, or is its node's shared"
                                + " disk)"),
                Arguments.of("one replica: the application is down for the whole copy", copyPlan(claim(0, false, true)), Optional.empty(),
                        each + "; the StatefulSet has 1 replica: the application is down for the whole copy; how long each copy"
                                + " takes depends on the data (its usage is not known here, or is its node's shared disk)"),
                Arguments.of("one replica serving, a scaled-away claim copied too: still one replica",
                        copyPlan(claim(0, false, true), claim(1, true, true)), Optional.empty(),
                        each + "; the StatefulSet has 1 replica: the application is down for the whole copy; how long each copy"
                                + " takes depends on the data (its usage is not known here, or is its node's shared disk)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void says(String name, Decision d, Optional<StatefulSetUsage> usage, String expected) {
        assertThat(CopyDowntime.paragraph(d, usage)).contains(expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("noCopy")
    void saysNothingWithoutAClaimToCopy(String name, Decision d) {
        assertThat(CopyDowntime.paragraph(d, Optional.empty())).isEmpty();
    }

    static Stream<Arguments> noCopy() {
        return Stream.of(
                Arguments.of("a growth in place", new Plan("files", "web", Verdict.GROW, List.of(), List.of(claim(0, false, false)),
                        List.of(), "")),
                Arguments.of("a copy plan whose claims are all kept", copyPlan(claim(0, false, false))));
    }
}
