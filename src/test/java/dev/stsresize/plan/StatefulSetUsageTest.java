package dev.stsresize.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What one StatefulSet's usage answers the report and the wizard: the claim that decides its danger, the soonest
 * time to full, and the suggestions a manifest does not meet yet.
 */
class StatefulSetUsageTest {
    private static final long GI = 1L << 30;

    private static ClaimUsage usage(String claim, long used, Optional<Duration> fillsIn) {
        return new ClaimUsage(claim, used, 10 * GI, 10 * GI - used, fillsIn);
    }

    private static SuggestedSize suggestion(String template, String suggested) {
        return new SuggestedSize(template, "10Gi", suggested, "why " + template, false);
    }

    private static TemplateSize declared(String template, String size) {
        return new TemplateSize(template, Quantity.parse("10Gi"), size == null ? null : Quantity.parse(size));
    }

    private static StatefulSetUsage withSuggestions(SuggestedSize... suggestions) {
        return new StatefulSetUsage("shop", "db", List.of(usage("data-db-0", 9 * GI, Optional.empty())), List.of(suggestions),
                List.of(new UnmeasuredClaim("data-db-1", "pod db-1 is Pending")));
    }

    @Test
    void theFullestClaimDecidesAndATieGoesToTheFirstName() {
        ClaimUsage half = usage("data-db-0", 5 * GI, Optional.empty());
        ClaimUsage fullB = usage("data-db-2", 9 * GI, Optional.empty());
        ClaimUsage fullA = usage("data-db-1", 9 * GI, Optional.empty());
        assertThat(new StatefulSetUsage("shop", "db", List.of(half, fullB, fullA), List.of()).fullest()).contains(fullA);
        assertThat(new StatefulSetUsage("shop", "db", List.of(fullA, fullB, half), List.of()).fullest())
                .as("the order the claims came in changes nothing").contains(fullA);
        assertThat(new StatefulSetUsage("shop", "db", List.of(), List.of()).fullest()).isEmpty();
    }

    @Test
    void theSoonestFillAmongClaimsThatHaveARate() {
        StatefulSetUsage u = new StatefulSetUsage("shop", "db", List.of(usage("data-db-0", GI, Optional.of(Duration.ofDays(3))),
                usage("data-db-1", 9 * GI, Optional.empty()), usage("data-db-2", 2 * GI, Optional.of(Duration.ofHours(5)))), List.of());
        assertThat(u.fillsIn()).contains(Duration.ofHours(5));
        assertThat(new StatefulSetUsage("shop", "db", List.of(usage("data-db-0", GI, Optional.empty())), List.of()).fillsIn())
                .as("no rate measured: no time to full").isEmpty();
    }

    @Test
    void aSuggestionIsDroppedWhereTheManifestDeclaresItOrMore() {
        StatefulSetUsage u = withSuggestions(suggestion("data", "14Gi"), suggestion("wal", "3Gi"), suggestion("logs", "2Gi"),
                suggestion("tmp", "5Gi"));
        StatefulSetUsage left = u.withoutSuggestionsMetBy(List.of(declared("data", "14Gi"), declared("wal", "20Gi"),
                declared("logs", "1536Mi"), declared("other", "100Gi")));
        assertThat(left.suggestions()).extracting(SuggestedSize::template)
                .as("data met exactly and wal exceeded are dropped; logs declared below 2Gi and tmp not declared stay")
                .containsExactly("logs", "tmp");
        assertThat(left.namespace()).isEqualTo("shop");
        assertThat(left.name()).isEqualTo("db");
        assertThat(left.claims()).isEqualTo(u.claims());
        assertThat(left.unmeasured()).isEqualTo(u.unmeasured());
    }

    @Test
    void aTemplateWithoutADeclaredSizeMeetsNoSuggestion() {
        StatefulSetUsage left = withSuggestions(suggestion("data", "14Gi")).withoutSuggestionsMetBy(List.of(declared("data", null)));
        assertThat(left.suggestions()).extracting(SuggestedSize::suggested).containsExactly("14Gi");
    }

    @Test
    void aSizeDeclaredInAnotherUnitIsComparedByValue() {
        StatefulSetUsage u = withSuggestions(suggestion("data", "14Gi"));
        assertThat(u.withoutSuggestionsMetBy(List.of(declared("data", "15032385536"))).suggestions()).as("14Gi in bytes").isEmpty();
        assertThat(u.withoutSuggestionsMetBy(List.of(declared("data", "15032385535"))).suggestions()).as("a byte short").hasSize(1);
    }

    @Test
    void theUnmeasuredClaimsAreAddedAndTheRestKept() {
        StatefulSetUsage u = new StatefulSetUsage("shop", "db", List.of(usage("data-db-0", GI, Optional.empty())),
                List.of(suggestion("data", "14Gi")));
        assertThat(u.unmeasured()).isEmpty();
        List<UnmeasuredClaim> unmeasured = List.of(new UnmeasuredClaim("data-db-1", "its node's summary could not be read"));
        StatefulSetUsage with = u.withUnmeasured(unmeasured);
        assertThat(with.unmeasured()).isEqualTo(unmeasured);
        assertThat(with).isEqualTo(new StatefulSetUsage("shop", "db", u.claims(), u.suggestions(), unmeasured));
        assertThat(with.key()).isEqualTo("shop/db");
    }
}
