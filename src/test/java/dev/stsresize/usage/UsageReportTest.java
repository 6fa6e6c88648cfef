package dev.stsresize.usage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.plan.ClaimUsage;
import dev.stsresize.plan.SizingPolicy;
import dev.stsresize.plan.StatefulSetUsage;
import dev.stsresize.plan.SuggestedSize;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class UsageReportTest {
    private static final long GI = 1L << 30;
    private static final Instant T0 = Instant.parse("2026-12-04T16:00:00Z");
    private static final UsageReport.Target LEDGER = new UsageReport.Target("payments", "ledger", Map.of("data", "10Gi"));
    private static final UsageReport.Target WEB = new UsageReport.Target("shop", "web", Map.of("data", "10Gi"));

    private static UsageReport read(Instant at, long ledgerUsed, long webUsed, Optional<Duration> ledgerFills) {
        return new UsageReport(List.of(LEDGER, WEB), Map.of(
                "payments/ledger", List.of(new ClaimUsage("data-ledger-0", ledgerUsed, 10 * GI, 10 * GI - ledgerUsed, ledgerFills)),
                "shop/web", List.of(new ClaimUsage("data-web-0", webUsed, 10 * GI, 10 * GI - webUsed, Optional.empty()))),
                Map.of(), SizingPolicy.of(30, 30), List.of(), at);
    }

    @Test
    void listsTheFullestFirstWithItsSuggestion() {
        UsageReport r = read(T0, 9 * GI, 2 * GI, Optional.empty());
        assertThat(r.fullestFirst()).extracting(StatefulSetUsage::key).containsExactly("payments/ledger", "shop/web");
        assertThat(r.of("payments", "ledger").orElseThrow().suggestions()).extracting(SuggestedSize::suggested)
                .containsExactly("13Gi");
        assertThat(r.of("shop", "web").orElseThrow().suggestions()).isEmpty();
        assertThat(r.of("shop", "absent")).isEmpty();
    }

    @Test
    void claimsOfStatefulSetsNotReadAreDropped() {
        UsageReport r = new UsageReport(List.of(WEB), Map.of("payments/ledger",
                List.of(new ClaimUsage("data-ledger-0", 1, 2, 1, Optional.empty()))), Map.of(), SizingPolicy.DEFAULT, List.of(), T0);
        assertThat(r.fullestFirst()).isEmpty();
    }

    @Test
    void successiveReadsGiveTheRateTheTimeToFullAndABiggerSuggestion() {
        UsageSamples samples = new UsageSamples();
        assertThat(samples.withRates()).isEmpty();
        samples.add(read(T0, 8 * GI, 2 * GI, Optional.empty()));
        assertThat(samples.withRates().orElseThrow().of("payments", "ledger").orElseThrow().fillsIn()).isEmpty();
        // 1Gi an hour, 1Gi left: full in an hour; web does not grow
        samples.add(read(T0.plusSeconds(3600), 9 * GI, 2 * GI, Optional.empty()));
        assertThat(samples.sampledFor()).isEqualTo(Duration.ofHours(1));
        UsageReport r = samples.withRates().orElseThrow();
        assertThat(r.of("payments", "ledger").orElseThrow().fillsIn()).contains(Duration.ofHours(1));
        assertThat(r.of("shop", "web").orElseThrow().fillsIn()).isEmpty();
        assertThat(r.notes()).containsExactly("growth measured from 2 reads over 1h");
        // 30 days at 24Gi/day from 9Gi
        assertThat(r.of("payments", "ledger").orElseThrow().suggestions()).extracting(SuggestedSize::suggested)
                .containsExactly("729Gi");
    }

    @Test
    void aRateFromPrometheusIsKeptAndALateOlderReadIgnored() {
        UsageSamples samples = new UsageSamples();
        samples.add(read(T0, 8 * GI, 2 * GI, Optional.of(Duration.ofDays(3))));
        samples.add(read(T0.plusSeconds(60), 9 * GI, 2 * GI, Optional.of(Duration.ofDays(3))));
        samples.add(read(T0.plusSeconds(30), 1 * GI, 2 * GI, Optional.empty()));
        assertThat(samples.size()).isEqualTo(2);
        assertThat(samples.withRates().orElseThrow().of("payments", "ledger").orElseThrow().fillsIn())
                .contains(Duration.ofDays(3));
    }

    @Test
    void keepsABoundedNumberOfReads() {
        UsageSamples samples = new UsageSamples();
        for (int i = 0; i < UsageSamples.KEPT + 10; i++) {
            samples.add(read(T0.plusSeconds(i), GI, GI, Optional.empty()));
        }
        assertThat(samples.size()).isEqualTo(UsageSamples.KEPT);
        assertThat(samples.sampledFor()).isEqualTo(Duration.ofSeconds(UsageSamples.KEPT - 1));
    }
}
