package dev.stsresize.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.assertj.core.data.Offset;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * USED % is the measure of kube-prometheus' {@code KubePersistentVolumeFillingUp}: {@code 1 − available ÷ capacity}
 * of the kubelet's volume stats, so it reads 100 % exactly when an unprivileged writer can write nothing more
 * (where {@code df}'s Use%, used ÷ (used + available), reads 100 % too), whatever the file system keeps back.
 */
class AlertMeasureTest {
    private static final long GI = 1L << 30;
    private static final long MI = 1L << 20;

    static Stream<Arguments> volumes() {
        return Stream.of(
                Arguments.of("no reserve: the same as used ÷ capacity", 7 * GI, 10 * GI, 3 * GI, 70.0, 70.0),
                Arguments.of("ext4's 5 % reserve counts: 7Gi used, 2.5Gi available", 7 * GI, 10 * GI, 5 * GI / 2, 75.0, 73.68),
                Arguments.of("a volume that refuses writes (the reserve reached) is 100 %, not 95 %", 95 * GI / 10, 10 * GI, 0L,
                        100.0, 100.0),
                Arguments.of("a real node's volume: 10 % used ÷ capacity, 25 % df, 70 % the alert's", 10 * GI, 100 * GI, 30 * GI, 70.0,
                        25.0),
                Arguments.of("an available above capacity (untrusted) reads 0 %, never negative", 0L, 10 * GI, 11 * GI, 0.0, 0.0),
                Arguments.of("one MiB left of 10Gi", 10 * GI - MI, 10 * GI, MI, 99.99, 99.99));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("volumes")
    void usedPercentIsTheAlertsMeasureAndReachesDfsAtFull(String row, long used, long capacity, long available, double alert,
            double df) {
        ClaimUsage c = new ClaimUsage("data-db-0", used, capacity, available, Optional.empty());
        assertThat(c.usedPercent()).as(row).isCloseTo(alert, Offset.offset(0.01));
        double dfUse = used + available == 0 ? 0 : 100.0 * used / (used + available);
        assertThat(dfUse).as(row + " (df)").isCloseTo(df, Offset.offset(0.01));
        if (available == 0) {
            assertThat(c.usedPercent()).as("full by both measures").isEqualTo(100.0).isEqualTo(dfUse);
        }
    }

    static Stream<Arguments> sizes() {
        return Stream.of(
                // 6.6Gi used, 0.5Gi reserved, 2.9Gi available: 71 % by the alert's measure; used ÷ capacity said 66 %, no need
                Arguments.of("a reserve that tips the volume past the headroom asks for more", 66 * GI / 10, 10 * GI, 29 * GI / 10,
                        "11Gi"),
                // 9.2Gi used with a 5 % reserve: writes refused at 9.5Gi; 30 % available after growing needs 9.2 ÷ 0.65 = 14.2Gi
                Arguments.of("the reserve stays a share of the new size", 92 * GI / 10, 10 * GI, 3 * GI / 10, "15Gi"),
                Arguments.of("no reserve: as before (9.2 ÷ 0.7 = 13.1Gi)", 92 * GI / 10, 10 * GI, 8 * GI / 10, "14Gi"),
                Arguments.of("exactly 30 % available by the alert's measure: nothing", 65 * GI / 10, 10 * GI, 3 * GI, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sizes")
    void theSuggestionLeavesTheHeadroomAvailableAsTheAlertMeasuresIt(String row, long used, long capacity, long available,
            String expected) {
        Optional<SuggestedSize> s = Sizing.suggest("data", "10Gi",
                List.of(new ClaimUsage("data-db-0", used, capacity, available, Optional.empty())), SizingPolicy.DEFAULT, Optional.empty());
        assertThat(s.map(SuggestedSize::suggested)).as(row).isEqualTo(Optional.ofNullable(expected));
    }

    @org.junit.jupiter.api.Test
    void aFileSystemSmallerThanItsClaimByItsMetadataStaysSoWhenGrown() {
        // a 10Gi claim whose ext4 reports 9.8Gi (inode tables, journal) and keeps 0.5Gi back; 7.074Gi used: 77 %
        long capacity = 98 * GI / 10;
        long used = 7074 * GI / 1000;
        long available = capacity - used - GI / 2;
        ClaimUsage c = new ClaimUsage("data-db-0", used, capacity, available, Optional.empty());
        SuggestedSize s = Sizing.suggest("data", "10Gi", List.of(c), SizingPolicy.DEFAULT, Optional.empty()).orElseThrow();
        // 11Gi would give an 10.78Gi file system, 0.54Gi reserved: 29.4 % available, the alert's measure above 70 %
        assertThat(afterGrowing(c, 11 * GI, 10 * GI)).isGreaterThan(70.0);
        assertThat(s.suggested()).isEqualTo("12Gi");
        assertThat(afterGrowing(c, 12 * GI, 10 * GI)).isLessThanOrEqualTo(70.0);
    }

    /** The alert's measure after a claim of {@code claimBytes} grows to {@code toBytes}: overhead and reserve keep their shares. */
    private static double afterGrowing(ClaimUsage c, long toBytes, long claimBytes) {
        double capacity = (double) toBytes * c.capacityBytes() / claimBytes;
        double reserved = capacity * c.reservedBytes() / c.capacityBytes();
        return 100 * (1 - (capacity - c.usedBytes() - reserved) / capacity);
    }

    @org.junit.jupiter.api.Test
    void aFileSystemFarLargerThanItsClaimIsSharedAndGetsNoSuggestion() {
        // a 1Gi claim on a hostPath-style CSI driver: the kubelet reports the node's 126Gi disk, 90 % full
        long capacity = 126 * GI;
        ClaimUsage onTheHost = new ClaimUsage("data-web-0", capacity * 85 / 100, capacity, capacity / 10, Optional.empty());
        assertThat(Sizing.suggest("data", "1Gi", List.of(onTheHost), SizingPolicy.DEFAULT, Optional.empty())).isEmpty();
        StatefulSetUsage u = Sizing.statefulSet("shop", "web", java.util.Map.of("data", "1Gi"), List.of(onTheHost), SizingPolicy.DEFAULT,
                Optional.empty());
        assertThat(u.suggestions()).isEmpty();
        assertThat(u.claims()).singleElement().satisfies(c -> assertThat(c.sharedFileSystem()).isTrue());
        // twice the claim is still the claim's own file system (a claim grown ahead of its template)
        ClaimUsage twice = new ClaimUsage("data-web-0", 19 * GI / 10, 2 * GI, GI / 10, Optional.empty());
        StatefulSetUsage own = Sizing.statefulSet("shop", "web", java.util.Map.of("data", "1Gi"), List.of(twice), SizingPolicy.DEFAULT,
                Optional.empty());
        assertThat(own.claims()).singleElement().satisfies(c -> assertThat(c.sharedFileSystem()).isFalse());
        assertThat(own.suggestions()).isNotEmpty();
    }
}
