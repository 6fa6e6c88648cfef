package dev.stsresize.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The edges of {@link Sizing}'s rules, each at the exact figure where the rule turns: a claim grown ahead that has just
 * the room, a reserve at half the headroom, a file system a tenth below its claim, days that need as much as the
 * headroom, a volume that reports no capacity, two claims that need the same.
 */
class SizingBoundariesTest {
    private static final long GI = 1L << 30;

    private static Optional<SuggestedSize> suggest(String current, SizingPolicy policy, ClaimUsage... claims) {
        return Sizing.suggest("data", current, List.of(claims), policy, Optional.empty());
    }

    private static ClaimUsage usage(String claim, long used, long capacity, long available) {
        return new ClaimUsage(claim, used, capacity, available, Optional.empty());
    }

    @Test
    void aClaimGrownAheadWithExactlyTheHeadroomAsksForNothing() {
        // 14Gi used of a 20Gi claim grown ahead of its 10Gi template: 30 % available, exactly the headroom
        assertThat(suggest("10Gi", SizingPolicy.DEFAULT, usage("data-db-0", 14 * GI, 20 * GI, 6 * GI))).isEmpty();
        assertThat(suggest("10Gi", SizingPolicy.DEFAULT, usage("data-db-0", 14 * GI + 1, 20 * GI, 6 * GI - 1)))
                .map(SuggestedSize::suggested).contains("21Gi");
    }

    @Test
    void ofTwoClaimsThatNeedTheSameTheFirstIsNamed() {
        SuggestedSize s = suggest("10Gi", SizingPolicy.DEFAULT, usage("data-db-0", 9 * GI, 10 * GI, GI),
                usage("data-db-1", 9 * GI, 10 * GI, GI)).orElseThrow();
        assertThat(s.suggested()).isEqualTo("13Gi");
        assertThat(s.why()).startsWith("data-db-0 90 % used");
    }

    @Test
    void aReserveOfHalfWhatTheHeadroomLeavesIsCountedAndALargerOneIsNot() {
        // headroom 50 %: a reserve up to 25 % of the capacity is the file system's and keeps its share when grown;
        // 3Gi used of 8Gi, 2Gi reserved: 3 ÷ (1 − 0.25 − 0.5) = 12Gi
        SizingPolicy half = new SizingPolicy(50, Optional.empty());
        assertThat(suggest("8Gi", half, usage("data-db-0", 3 * GI, 8 * GI, 3 * GI))).map(SuggestedSize::suggested).contains("12Gi");
        // headroom 30 %: a reserve of 50 % (above 35 %) is taken for untrusted figures and left out: 3 ÷ 0.7 = 4.3Gi, nothing;
        // counted it would ask 3 ÷ (1 − 0.5 − 0.3) = 15Gi
        assertThat(suggest("10Gi", SizingPolicy.DEFAULT, usage("data-db-0", 3 * GI, 10 * GI, 2 * GI))).isEmpty();
    }

    @Test
    void aFileSystemExactlyATenthBelowItsClaimStaysThatMuchBelowWhenGrown() {
        // an 11k claim whose file system reports 10k (11k ÷ 1.1): 9k used needs a 12,858-byte file system, so a claim of
        // 12,858 × 1.1 = 14,144 bytes, 15k; taken as the claim's own size it would be 13k
        assertThat(suggest("11k", SizingPolicy.DEFAULT, usage("data-db-0", 9_000, 10_000, 1_000))).map(SuggestedSize::suggested)
                .contains("15k");
    }

    @Test
    void daysThatNeedExactlyWhatTheHeadroomNeedsAreNotSaidToDecide() {
        // 7.56e9 used, 37,500 bytes a second: one day adds 3.24e9, 10.8e9 in all, which is also 7.56e9 ÷ 0.7
        long capacity = 10_737_450_000L;
        long available = capacity - 7_560_000_000L;
        ClaimUsage c = new ClaimUsage("data-db-0", 7_560_000_000L, capacity, available,
                Optional.of(Duration.ofSeconds(available / 37_500)));
        SuggestedSize s = suggest("10Gi", SizingPolicy.of(30, 1), c).orElseThrow();
        assertThat(s.suggested()).isEqualTo("11Gi");
        assertThat(s.why()).endsWith("; 30 % available needs 10.1Gi").doesNotContain("growing");
    }

    @Test
    void aVolumeThatReportsNoCapacityIsSizedByWhatItUsesAndItsRate() {
        // 12Gi used, 1.08e9 bytes available filling in a day: 12,500 bytes a second, 30 days add 3.24e10: 42.2Gi
        ClaimUsage c = new ClaimUsage("data-db-0", 12 * GI, 0, 1_080_000_000L, Optional.of(Duration.ofDays(1)));
        SuggestedSize s = suggest("10Gi", SizingPolicy.of(30, 30), c).orElseThrow();
        assertThat(s.suggested()).isEqualTo("43Gi");
        assertThat(s.why()).contains("30d needs 42.2Gi");
    }

    @Test
    void aTemplateOfNoSizeAsksForNothing() {
        assertThat(suggest("0", SizingPolicy.DEFAULT, usage("data-db-0", 9 * GI, 10 * GI, GI))).isEmpty();
    }

    @ParameterizedTest(name = "{0} is sized in {1}")
    @CsvSource({"10Gi, Gi", "20G, G", "500Mi, Mi", "3Ti, Ti", "10E, E", "1e10, Gi", "1E3, Gi", "10737418240, Gi", "1500m, Gi",
        "'', Gi"})
    void theUnitIsTheTemplatesOwnSuffix(String quantity, String unit) {
        assertThat(Sizing.unitOf(quantity)).isEqualTo(unit);
    }

    @Test
    void aClaimMeasuredAgainstNoSizeIsNeverOnASharedFileSystem() {
        ClaimUsage c = usage("data-db-0", GI, 100 * GI, 99 * GI);
        assertThat(c.sharedFileSystem()).isFalse();
        assertThat(c.measuredAgainst(10 * GI).sharedFileSystem()).isTrue();
        assertThat(c.measuredAgainst(50 * GI).sharedFileSystem()).as("exactly twice is still its own").isFalse();
    }

    @Test
    void aNewTimeToFullKeepsTheRest() {
        ClaimUsage c = usage("data-db-0", GI, 10 * GI, 9 * GI).measuredAgainst(10 * GI);
        ClaimUsage later = c.withFillsIn(Optional.of(Duration.ofHours(9)));
        assertThat(later).isEqualTo(new ClaimUsage("data-db-0", GI, 10 * GI, 9 * GI, Optional.of(Duration.ofHours(9)), 10 * GI));
        assertThat(later.bytesPerSecond()).contains(9.0 * GI / 32_400);
    }
}
