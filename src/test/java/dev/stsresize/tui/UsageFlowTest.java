package dev.stsresize.tui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.plan.ClaimUsage;
import dev.stsresize.plan.SizingPolicy;
import dev.stsresize.tui.Key.Kind;
import dev.stsresize.tui.UpdateTest.After;
import dev.stsresize.usage.UsageReport;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Usage in the UI as plain data: the timer, the columns' figures, the sort, the suggestion pre-filled, the view. */
class UsageFlowTest {
    static final long GI = 1L << 30;

    /** payments/ledger 92 % full, filling in 3 h; shop/postgres 50 %; legacy/etcd not in the manifest's order of concern. */
    static UsageReport report() {
        return new UsageReport(List.of(
                new UsageReport.Target("payments", "ledger", Map.of("data", "10Gi")),
                new UsageReport.Target("shop", "postgres", Map.of("data", "10Gi")),
                new UsageReport.Target("other", "cache", Map.of("data", "1Gi"))),
                Map.of("payments/ledger", List.of(new ClaimUsage("data-ledger-0", 92 * GI / 10 + 1, 10 * GI, 8 * GI / 10,
                                Optional.of(Duration.ofHours(3)))),
                        "shop/postgres", List.of(new ClaimUsage("data-postgres-0", 5 * GI, 10 * GI, 5 * GI, Optional.empty())),
                        "other/cache", List.of(new ClaimUsage("data-cache-0", GI * 85 / 100, GI, GI * 15 / 100, Optional.empty()))),
                Map.of(), SizingPolicy.DEFAULT, List.of(), Instant.EPOCH);
    }

    static UiEvent read() {
        return new UiEvent.UsageRead(report(), Duration.ofMinutes(6));
    }

    @Test
    void theFirstLoadStartsTheTimerAndEachReadAsksForTheNext() {
        Transition first = Update.apply(UiState.initial(80, 24), new UiEvent.DecisionsLoaded(DemoDecisions.loaded()));
        assertThat(first.effects()).containsExactly(new Effect.ReadUsage(Duration.ZERO));
        // a refresh does not start a second timer
        assertThat(Update.apply(first.state(), new UiEvent.DecisionsLoaded(DemoDecisions.loaded())).effects()).isEmpty();
        Transition read = Update.apply(first.state(), read());
        assertThat(read.effects()).containsExactly(new Effect.ReadUsage(UsageFlow.INTERVAL));
        assertThat(read.state().usage().status()).isEqualTo("usage: sampled for 6m");
    }

    @Test
    void aReadThatArrivesDuringTheWizardSchedulesNoOtherAndLeavingItReadsAtOnce() {
        After inWizard = UpdateTest.at("postgres").keys("a").then(read());
        assertThat(inWizard.state().view()).isEqualTo(View.WIZARD);
        assertThat(inWizard.effects()).as("no summaries while the run writes").noneMatch(e -> e instanceof Effect.ReadUsage);
        assertThat(inWizard.state().usage().paused()).isTrue();
        assertThat(inWizard.then(new UiEvent.Resized(100, 30)).effects()).as("still in the wizard").isEmpty();
        After back = inWizard.keys(Kind.ESCAPE);
        assertThat(back.state().view()).isEqualTo(View.LIST);
        assertThat(back.effects()).as("the list shows usage again: a read now, the timer from it")
                .containsOnlyOnce(new Effect.ReadUsage(Duration.ZERO));
        assertThat(back.state().usage().paused()).isFalse();
        assertThat(back.keys(Kind.DOWN).effects()).as("one timer, not one per key").isEmpty();
        assertThat(back.then(read()).effects()).containsExactly(new Effect.ReadUsage(UsageFlow.INTERVAL));
    }

    @Test
    void theFiguresOfTheListFullestClaimTimeToFullAndSuggestion() {
        UsageIndex u = UpdateTest.start().then(read()).state().usage();
        var ledger = DemoDecisions.named("ledger");
        assertThat(u.usedCell(ledger)).isEqualTo("92%");
        assertThat(u.fillsInCell(ledger)).isEqualTo("3h");
        assertThat(u.suggestCell(ledger)).isEqualTo("14Gi");
        assertThat(UsageIndex.style(u.usedPercent(ledger))).isEqualTo(Styled.Style.BAD);
        assertThat(UsageIndex.style(85)).isEqualTo(Styled.Style.WARN);
        assertThat(UsageIndex.style(79.9)).isEqualTo(Styled.Style.NORMAL);
        assertThat(u.usedCell(DemoDecisions.named("redis"))).isEmpty();
    }

    @Test
    void beforeTheReadsSpanEnoughAClaimWithoutARateSaysItIsSamplingNotBlank() {
        UiState s = UpdateTest.start().then(new UiEvent.UsageRead(report(), Duration.ofSeconds(37))).state();
        UsageIndex u = s.usage();
        assertThat(u.status()).isEqualTo("usage: sampled for 37s (time to full after 5m)");
        assertThat(u.fillsInCell(DemoDecisions.named("postgres"))).isEqualTo("sampling");
        assertThat(u.fillsInCell(DemoDecisions.named("ledger"))).as("a rate Prometheus gave stands").isEqualTo("3h");
        UiState later = Update.apply(s, new UiEvent.UsageRead(report(), Duration.ofMinutes(5))).state();
        assertThat(later.usage().fillsInCell(DemoDecisions.named("postgres"))).as("known not to grow").isEmpty();
    }

    @Test
    void theUsageViewNamesEachClaimWithNoUsageAndWhyAndMarksASharedFileSystem() {
        UsageReport base = report();
        UsageReport withGaps = new UsageReport(base.targets(), Map.of(
                "payments/ledger", List.of(new ClaimUsage("data-ledger-0", 92 * GI / 10 + 1, 10 * GI, 8 * GI / 10, Optional.empty())),
                "other/cache", List.of(new ClaimUsage("data-cache-0", 40 * GI, 100 * GI, 60 * GI, Optional.empty()))),
                Map.of(), SizingPolicy.DEFAULT, List.of(), Instant.EPOCH,
                Map.of("shop/postgres", List.of(new dev.stsresize.plan.UnmeasuredClaim("data-postgres-0", "pod postgres-0 is Pending"))));
        UiState s = UpdateTest.start().then(new UiEvent.UsageRead(withGaps, Duration.ofMinutes(6))).keys("u").state();
        String screen = VirtualScreen.draw(s, ViewsGoldenTest.COLOUR, Glyphs.UNICODE).text();
        assertThat(screen).contains("no usage: shop/postgres data-postgres-0: pod postgres-0 is Pending");
        assertThat(screen).containsPattern("other/cache +40% +data-cache-0 +60Gi +none: shared");
    }

    @Test
    void sortByUsedPutsTheFullestFirstAndKeepsTheSelection() {
        After a = UpdateTest.at("postgres").then(read()).keys("s", "s", "s");
        assertThat(a.state().sort()).isEqualTo(SortOrder.USED);
        assertThat(a.state().visible().get(0).name()).isEqualTo("ledger");
        assertThat(a.state().visible().get(1).name()).isEqualTo("postgres");
        assertThat(a.selected().name()).isEqualTo("postgres");
    }

    @Test
    void eOnAFillingStatefulSetPrefillsTheSuggestion() {
        UiState s = EditFlowTest.ledger().then(read()).state();
        After a = new After(s, List.of()).keys("e");
        assertThat(a.state().edit().rows()).singleElement().satisfies(r -> {
            assertThat(r.value()).isEqualTo("14Gi");
            assertThat(r.hint()).contains("92 %");
        });
        assertThat(a.keys(Kind.ENTER).effects()).containsExactly(new Effect.PrepareEdit(List.of(
                new SizeEdit.Change(EditFlowTest.FILE, "payments", "ledger", "data", "14Gi"))));
    }

    @Test
    void usageUnknownIsSaidOnceAsInformationNeverAsAnError() {
        UiEvent forbidden = new UiEvent.UsageRead(UsageReport.empty(List.of("usage unknown (cannot get nodes/proxy)"), Instant.EPOCH),
                Duration.ZERO);
        After a = UpdateTest.start().then(forbidden);
        assertThat(a.state().flash().text()).isEqualTo("usage unknown (cannot get nodes/proxy)");
        assertThat(a.state().flash().level()).isEqualTo(Flash.Level.INFO);
        assertThat(a.state().dialog()).isNull();
        assertThat(a.state().usage().status()).isEqualTo("usage unknown (cannot get nodes/proxy)");
        // the next read says the same: no second flash
        assertThat(a.keys(Kind.DOWN).then(forbidden).state().flash()).isNull();
    }

    @Test
    void uListsEveryStatefulSetReadFullestFirstAndEnterOpensADeclaredOnesDiff() {
        After a = UpdateTest.start().then(read()).keys("u");
        assertThat(a.state().view()).isEqualTo(View.USAGE);
        assertThat(UsageFlow.rows(a.state()).stream().map(x -> x.key())).containsExactly("payments/ledger", "other/cache", "shop/postgres");
        After cache = a.keys(Kind.DOWN, Kind.ENTER);
        assertThat(cache.state().view()).isEqualTo(View.USAGE);
        assertThat(cache.state().flash().text()).contains("other/cache is not in the manifest");
        After ledger = a.keys(Kind.ENTER);
        assertThat(ledger.state().view()).isEqualTo(View.DIFF);
        assertThat(ledger.selected().name()).isEqualTo("ledger");
        assertThat(DiffLines.of(ledger.selected(), ledger.state().loaded(), ledger.state().usage(), Glyphs.UNICODE, 76).stream()
                .map(Styled.Line::text)).anySatisfy(l -> assertThat(l).contains("data-ledger-0  used 92%  available 819Mi of 10Gi  fills in 3h"));
    }
}
