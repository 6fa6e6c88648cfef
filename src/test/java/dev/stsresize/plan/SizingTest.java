package dev.stsresize.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class SizingTest {
    private static final long GI = 1L << 30;
    private static final long G = 1_000_000_000L;
    private static final long MI = 1L << 20;

    private static ClaimUsage usage(String claim, long used, long capacity) {
        return new ClaimUsage(claim, used, capacity, capacity - used, Optional.empty());
    }

    private static ClaimUsage filling(String claim, long used, long capacity, Duration fillsIn) {
        return new ClaimUsage(claim, used, capacity, capacity - used, Optional.of(fillsIn));
    }

    private static Optional<SuggestedSize> suggest(String current, List<ClaimUsage> claims, SizingPolicy policy) {
        return Sizing.suggest("data", current, claims, policy, Optional.empty());
    }

    static Stream<Arguments> rows() {
        return Stream.of(
                Arguments.of("92 % of 10Gi needs 9.2/0.7 = 13.14Gi: 14Gi", "10Gi",
                        List.of(usage("data-db-0", (long) (9.2 * GI), 10 * GI)), "14Gi"),
                Arguments.of("the fullest claim decides, not the first", "10Gi",
                        List.of(usage("data-db-0", 2 * GI, 10 * GI), usage("data-db-1", 8 * GI, 10 * GI)), "12Gi"),
                Arguments.of("exactly 7Gi used of 10Gi is exactly 30 % free: nothing", "10Gi",
                        List.of(usage("data-db-0", 7 * GI, 10 * GI)), null),
                Arguments.of("one byte more than 30 % free asks for the next whole Gi", "10Gi",
                        List.of(usage("data-db-0", 7 * GI + 1, 10 * GI)), "11Gi"),
                Arguments.of("the template's unit is kept: G stays G (decimal)", "20G",
                        List.of(usage("data-db-0", 19 * G, 20 * G)), "28G"),
                Arguments.of("Mi stays Mi", "500Mi",
                        List.of(usage("data-db-0", 450 * MI, 500 * MI)), "643Mi"),
                Arguments.of("a plain byte count is sized in Gi", Long.toString(10 * GI),
                        List.of(usage("data-db-0", 9 * GI, 10 * GI)), "13Gi"),
                Arguments.of("an exponent is sized in Gi", "1e10",
                        List.of(usage("data-db-0", 9 * GI, 10 * GI)), "13Gi"),
                Arguments.of("a claim grown ahead of its template counts by its own capacity", "10Gi",
                        List.of(usage("data-db-0", 9 * GI, 20 * GI)), null),
                Arguments.of("a suggestion not above the template is none (set-size never shrinks)", "20Gi",
                        List.of(usage("data-db-0", 9 * GI, 10 * GI)), null),
                Arguments.of("an empty volume asks for nothing", "10Gi", List.of(usage("data-db-0", 0, 10 * GI)), null),
                Arguments.of("no claim usage known: nothing", "10Gi", List.of(), null),
                Arguments.of("an unreadable current size: nothing", "ten", List.of(usage("data-db-0", 9 * GI, 10 * GI)), null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void suggestsTheSmallestWholeUnitLeavingTheHeadroomFree(String row, String current, List<ClaimUsage> claims, String expected) {
        Optional<SuggestedSize> s = suggest(current, claims, SizingPolicy.DEFAULT);
        assertThat(s.map(SuggestedSize::suggested)).as(row).isEqualTo(Optional.ofNullable(expected));
        s.ifPresent(x -> {
            assertThat(x.template()).isEqualTo("data");
            assertThat(x.current()).isEqualTo(current);
            assertThat(x.cappedByQuota()).isFalse();
        });
    }

    @ParameterizedTest(name = "headroom {0} % on 9Gi used of 10Gi: {1}")
    @CsvSource({"0, 10Gi, false", "10, 10Gi, false", "30, 13Gi, true", "50, 18Gi, true", "90, 90Gi, true"})
    void theHeadroomIsThePercentOfTheNewSizeLeftFree(int headroom, String expected, boolean present) {
        Optional<SuggestedSize> s = suggest("10Gi", List.of(usage("data-db-0", 9 * GI, 10 * GI)),
                new SizingPolicy(headroom, Optional.empty()));
        assertThat(s.map(SuggestedSize::suggested)).isEqualTo(present ? Optional.of(expected) : Optional.empty());
    }

    @Test
    void daysAtTheMeasuredRateWinWhenTheyNeedMore() {
        // 1Gi free, full in one day: 1Gi/day; 30 days from 9Gi used needs 39Gi
        ClaimUsage c = filling("data-db-0", 9 * GI, 10 * GI, Duration.ofDays(1));
        SuggestedSize s = suggest("10Gi", List.of(c), SizingPolicy.of(30, 30)).orElseThrow();
        assertThat(s.suggested()).isEqualTo("39Gi");
        assertThat(s.why()).contains("growing 1Gi/day").contains("30d needs 39Gi");
    }

    @Test
    void theHeadroomStillHoldsWhenTheDaysNeedLess() {
        ClaimUsage slow = filling("data-db-0", 9 * GI, 10 * GI, Duration.ofDays(1000));
        SuggestedSize s = suggest("10Gi", List.of(slow), SizingPolicy.of(30, 7)).orElseThrow();
        assertThat(s.suggested()).isEqualTo("13Gi");
        assertThat(s.why()).contains("30 % available needs");
    }

    @Test
    void withoutARateTheDaysAreSaidUnmeasuredAndTheHeadroomDecides() {
        SuggestedSize s = suggest("10Gi", List.of(usage("data-db-0", 9 * GI, 10 * GI)), SizingPolicy.of(30, 30)).orElseThrow();
        assertThat(s.suggested()).isEqualTo("13Gi");
        assertThat(s.why()).contains("no growth rate measured for 30d");
    }

    @Test
    void theWhyNamesTheClaimHowFullAndWhatTheSizeGives() {
        SuggestedSize s = suggest("10Gi", List.of(usage("data-ledger-0", (long) (9.2 * GI), 10 * GI)), SizingPolicy.DEFAULT)
                .orElseThrow();
        assertThat(s.why()).isEqualTo("data-ledger-0 92 % used (819Mi of 10Gi available); 30 % available needs 13.1Gi");
    }

    @Test
    void theWhyIsTheDecidingClaimsAmongMany() {
        // the words are made for the claim that decides only; the others, before and after it, leave no trace
        SuggestedSize s = suggest("10Gi", List.of(usage("data-ledger-0", 2 * GI, 10 * GI),
                usage("data-ledger-1", (long) (9.2 * GI), 10 * GI), usage("data-ledger-2", 8 * GI, 10 * GI)),
                SizingPolicy.of(30, 30)).orElseThrow();
        assertThat(s.why()).isEqualTo("data-ledger-1 92 % used (819Mi of 10Gi available); 30 % available needs 13.1Gi"
                + " (no growth rate measured for 30d)");
    }

    @Test
    void theQuotaCapsTheSizeAndSaysSo() {
        // three claims of 10Gi, 9Gi used each, want 13Gi each = +9Gi; only 6Gi left → 12Gi each (+6Gi)
        List<ClaimUsage> claims = List.of(usage("data-db-0", 9 * GI, 10 * GI), usage("data-db-1", 9 * GI, 10 * GI),
                usage("data-db-2", 9 * GI, 10 * GI));
        SuggestedSize s = Sizing.suggest("data", "10Gi", claims, SizingPolicy.DEFAULT, Optional.of(6 * GI)).orElseThrow();
        assertThat(s.suggested()).isEqualTo("12Gi");
        assertThat(s.cappedByQuota()).isTrue();
        assertThat(s.why()).contains("capped by the namespace's storage quota (6Gi left)");
    }

    @Test
    void aQuotaWithRoomLeavesTheSizeAlone() {
        SuggestedSize s = Sizing.suggest("data", "10Gi", List.of(usage("data-db-0", 9 * GI, 10 * GI)), SizingPolicy.DEFAULT,
                Optional.of(3 * GI)).orElseThrow();
        assertThat(s.suggested()).isEqualTo("13Gi");
        assertThat(s.cappedByQuota()).isFalse();
    }

    @Test
    void aFullQuotaKeepsTheSuggestionAndSaysToRaiseTheQuotaFirst() {
        SuggestedSize s = Sizing.suggest("data", "10Gi", List.of(usage("data-db-0", 9 * GI, 10 * GI)), SizingPolicy.DEFAULT,
                Optional.of(512 * MI)).orElseThrow();
        assertThat(s.suggested()).isEqualTo("13Gi");
        assertThat(s.cappedByQuota()).isTrue();
        assertThat(s.why()).contains("cannot hold it: raise its requests.storage first");
    }

    @Test
    void aClaimGrownAheadAddsOnlyWhatItLacksToTheQuota() {
        // db-0 at 10Gi needs +3Gi; db-1 already 20Gi adds nothing: 3Gi left is enough
        List<ClaimUsage> claims = List.of(usage("data-db-0", 9 * GI, 10 * GI), usage("data-db-1", 1 * GI, 20 * GI));
        SuggestedSize s = Sizing.suggest("data", "10Gi", claims, SizingPolicy.DEFAULT, Optional.of(3 * GI)).orElseThrow();
        assertThat(s.suggested()).isEqualTo("13Gi");
        assertThat(s.cappedByQuota()).isFalse();
    }

    @Test
    void usagePercentAndRateAndTheSoonestFill() {
        ClaimUsage a = filling("data-db-0", 5 * GI, 10 * GI, Duration.ofHours(10));
        ClaimUsage b = filling("data-db-1", 8 * GI, 10 * GI, Duration.ofHours(3));
        assertThat(a.usedPercent()).isEqualTo(50.0);
        assertThat(a.bytesPerSecond().orElseThrow()).isEqualTo(5.0 * GI / 36_000);
        assertThat(new ClaimUsage("x", 0, 0, 0, Optional.empty()).usedPercent()).isZero();
        StatefulSetUsage u = new StatefulSetUsage("ns", "db", List.of(a, b), List.of());
        assertThat(u.fullest()).contains(b);
        assertThat(u.fillsIn()).contains(Duration.ofHours(3));
        assertThat(u.key()).isEqualTo("ns/db");
    }

    @Test
    void aClaimsUseIsAShareOfItsCapacityAndItsRateNeedsATimeToFull() {
        assertThat(new ClaimUsage("c", 50, 200, 150, Optional.empty()).usedPercent()).isEqualTo(25.0);
        assertThat(new ClaimUsage("c", 300, 200, 0, Optional.empty()).usedPercent()).as("never past 100").isEqualTo(100.0);
        assertThat(new ClaimUsage("c", 5, 0, 0, Optional.empty()).usedPercent()).as("used, no capacity reported").isEqualTo(100.0);
        assertThat(new ClaimUsage("c", 0, 0, 0, Optional.empty()).usedPercent()).isEqualTo(0.0);
        assertThat(new ClaimUsage("c", 0, 100, 100, Optional.of(Duration.ofSeconds(50))).bytesPerSecond()).contains(2.0);
        assertThat(new ClaimUsage("c", 0, 100, 100, Optional.of(Duration.ZERO)).bytesPerSecond()).as("no rate from a zero time").isEmpty();
        assertThat(new ClaimUsage("c", 0, 100, 100, Optional.of(Duration.ofSeconds(-5))).bytesPerSecond()).isEmpty();
    }

    @Test
    void refusesAPolicyThatCannotBeMet() {
        assertThatThrownBy(() -> new SizingPolicy(100, Optional.empty())).hasMessageContaining("--headroom");
        assertThatThrownBy(() -> SizingPolicy.of(30, 0)).hasMessageContaining("--days");
    }

    @ParameterizedTest(name = "{0} bytes read {1}")
    @CsvSource({"0, 0", "1023, 1023", "1024, 1Ki", "1536, 1.5Ki", "1048576, 1Mi", "9878424780, 9.2Gi", "10737418240, 10Gi",
        "118111600640, 110Gi"})
    void bytesReadAsPeopleReadThem(long bytes, String text) {
        assertThat(Bytes.human(bytes)).isEqualTo(text);
    }

    @ParameterizedTest(name = "{0} s reads {1}")
    @CsvSource({"5, 5s", "59, 59s", "60, 1m", "90, 1m", "3599, 59m", "3600, 1h", "10800, 3h", "172799, 47h", "172800, 2d",
        "2592000, 30d"})
    void durationsReadAsPeopleReadThem(long seconds, String text) {
        assertThat(Durations.brief(Duration.ofSeconds(seconds))).isEqualTo(text);
    }

    @Test
    void eachTemplateIsSizedFromItsOwnClaims() {
        java.util.Map<String, String> templates = new java.util.LinkedHashMap<>();
        templates.put("data", "10Gi");
        templates.put("wal", "2Gi");
        templates.put("logs", "1Gi");
        List<ClaimUsage> claims = List.of(usage("data-db-0", 9 * GI, 10 * GI), usage("wal-db-0", 1 * GI, 2 * GI),
                usage("logs-db-0", 1 * GI, 1 * GI), usage("data-db-backup-0", 10 * GI, 10 * GI));
        StatefulSetUsage u = Sizing.statefulSet("ns", "db", templates, claims, SizingPolicy.DEFAULT, Optional.empty());
        assertThat(u.suggestions()).extracting(SuggestedSize::template, SuggestedSize::suggested)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("data", "13Gi"), org.assertj.core.groups.Tuple.tuple("logs", "2Gi"));
        assertThat(u.claims()).hasSize(4);
    }
}
