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
    void readsSecondsApartGiveNoTimeToFullAndSaySoUntilTheySpanEnough() {
        // 37 s of reads, growing fast: the kubelet measured at most once or twice in them, no slope means anything yet
        UsageSamples samples = new UsageSamples();
        samples.add(read(T0, 8 * GI, 2 * GI, Optional.empty()));
        samples.add(read(T0.plusSeconds(20), 8 * GI + GI / 100, 2 * GI, Optional.empty()));
        samples.add(read(T0.plusSeconds(37), 8 * GI + GI / 50, 2 * GI, Optional.empty()));
        UsageReport early = samples.withRates().orElseThrow();
        assertThat(early.of("payments", "ledger").orElseThrow().fillsIn()).isEmpty();
        assertThat(early.notes()).containsExactly("growth not yet known: sampled for 37s of the 5m a time to full needs");
        // from five minutes on, the slope gives the time to full
        samples.add(read(T0.plus(UsageSamples.ENOUGH), 8 * GI + GI / 10, 2 * GI, Optional.empty()));
        UsageReport later = samples.withRates().orElseThrow();
        assertThat(later.of("payments", "ledger").orElseThrow().fillsIn()).isPresent();
        assertThat(later.notes()).containsExactly("growth measured from 4 reads over 5m");
    }

    @Test
    void unmeasuredClaimsAreKeptPerStatefulSetWithTheirReasons() {
        UsageReport r = new UsageReport(List.of(LEDGER, WEB), Map.of(
                "payments/ledger", List.of(new ClaimUsage("data-ledger-0", GI, 10 * GI, 8 * GI, Optional.empty()))),
                Map.of(), SizingPolicy.DEFAULT, List.of(), T0, Map.of(
                        "payments/ledger", List.of(new dev.stsresize.plan.UnmeasuredClaim("data-ledger-1", "pod ledger-1 is Pending")),
                        "shop/web", List.of(new dev.stsresize.plan.UnmeasuredClaim("data-web-0", "pod web-0 does not exist")),
                        "other/absent", List.of(new dev.stsresize.plan.UnmeasuredClaim("data-absent-0", "not read"))));
        assertThat(r.of("payments", "ledger").orElseThrow().unmeasured()).extracting(dev.stsresize.plan.UnmeasuredClaim::reason)
                .containsExactly("pod ledger-1 is Pending");
        assertThat(r.of("shop", "web")).as("no claim measured: no usage, but the reason").isEmpty();
        assertThat(r.unmeasured("shop", "web")).extracting(dev.stsresize.plan.UnmeasuredClaim::claim).containsExactly("data-web-0");
        assertThat(r.unmeasured()).as("only StatefulSets read, in their order").containsOnlyKeys("payments/ledger", "shop/web");
        assertThat(r.withFillsIn(Map.of(), List.of()).unmeasured("shop", "web")).as("kept through a new rate").hasSize(1);
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
