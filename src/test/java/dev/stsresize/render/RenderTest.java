package dev.stsresize.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stsresize.plan.ClaimState;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Finding;
import dev.stsresize.plan.Plan;
import dev.stsresize.plan.Quantity;
import dev.stsresize.plan.Reason;
import dev.stsresize.plan.Refusal;
import dev.stsresize.plan.TemplateSize;
import dev.stsresize.plan.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The verdicts the example does not show: blocked, absent, a claim with no capacity or class yet. */
class RenderTest {
    static final Quantity G1 = Quantity.parse("1024Mi");
    static final Quantity G2 = Quantity.parse("2Gi");
    static final ClaimState PENDING = new ClaimState("data-db-1", "data", 1, G1, null, "Pending", null, false, G2, true, true);
    static final Decision BLOCKED = new Refusal("ns", "db", List.of(new Finding(Reason.CLAIM_UNBOUND, "claim \"data-db-1\" is Pending")),
            List.of(new TemplateSize("data", G1, G2)), List.of(PENDING), List.of("the manifest omits replicas"));
    static final Decision ABSENT = new Plan("ns", "absent", Verdict.ABSENT, List.of(new TemplateSize("data", null, G2)), List.of(),
            List.of(), "not in the cluster");

    @Test
    void writesABlockedItemWithItsReasonAndTheClaimsTheTableLists() {
        JsonNode item = PlanDocument.of(List.of(BLOCKED, ABSENT)).path("items").get(1);
        assertThat(item.path("verdict").asText()).isEqualTo("blocked");
        assertThat(item.path("reason").asText()).isEqualTo("claim-unbound");
        // the table lists "data-db-1 … needs growth, scaled away" (showsBlockedAndAbsentInTheTable): so does the JSON
        assertThat(item.path("claims")).hasSize(1);
        assertThat(item.at("/claims/0/name").asText()).isEqualTo("data-db-1");
        assertThat(item.at("/claims/0/action").asText()).isEqualTo("needs-growth");
        assertThat(item.at("/claims/0/scaledAway").asBoolean()).isTrue();
        assertThat(item.at("/claims/0/expandable").asBoolean()).isFalse();
        assertThat(item.path("templates").get(0).path("from").asText()).as("canonical").isEqualTo("1Gi");
        assertThat(item.path("warnings").get(0).asText()).isEqualTo("the manifest omits replicas");
        JsonNode absent = PlanDocument.of(List.of(BLOCKED, ABSENT)).path("items").get(0);
        assertThat(absent.path("name").asText()).as("sorted by name within the namespace").isEqualTo("absent");
        assertThat(absent.has("reason")).isFalse();
        assertThat(absent.path("templates")).as("an absent StatefulSet changes no live template").isEmpty();
    }

    @Test
    void writesUnknownCapacityAndClassAsNull() {
        Plan grow = new Plan("ns", "db", Verdict.GROW_CLAIMS, List.of(new TemplateSize("data", G2, G2)), List.of(PENDING), List.of(), "d");
        JsonNode claim = PlanDocument.of(List.of(grow)).at("/items/0/claims/0");
        assertThat(claim.path("capacity").isNull()).isTrue();
        assertThat(claim.path("storageClass").isNull()).isTrue();
        assertThat(claim.path("from").asText()).isEqualTo("1Gi");
        assertThat(DocumentWriter.json(PlanDocument.of(List.of(grow)))).contains("\"capacity\": null");
    }

    @Test
    void showsBlockedAndAbsentInTheTable() {
        String table = new TableRenderer(Palette.PLAIN).render(List.of(BLOCKED, ABSENT));
        assertThat(table).contains("ns/db  BLOCKED: claim-unbound", "template data: 1Gi → 2Gi",
                "data-db-1  1Gi      -         →  2Gi     (none) ✗  Pending  needs growth, scaled away",
                "claim-unbound: claim \"data-db-1\" is Pending", "warning: the manifest omits replicas",
                "ns/absent  ABSENT", "template data: 2Gi (not in the cluster)")
                .endsWith("2 StatefulSets: 1 blocked, 1 absent\n");
        assertThat(table).doesNotContain("ns/absent  ABSENT\n  no claims");
    }

    @Test
    void marksAShrinkAndAnUnexpandableClassInRed() {
        Decision shrink = new Refusal("ns", "db", List.of(new Finding(Reason.SHRINK, "s")), List.of(new TemplateSize("data", G2, G1)),
                List.of(new ClaimState("data-db-0", "data", 0, G2, G2, "Bound", "slow", false, G1, false, false)), List.of());
        String table = new TableRenderer(Palette.ANSI).render(List.of(shrink));
        assertThat(table).contains("\u001b[31m1Gi (shrink)\u001b[0m", "slow \u001b[31m✗\u001b[0m", "\u001b[31mREFUSED: shrink\u001b[0m");
    }

    @Test
    void choosesColourByFlagTerminalAndNoColor() {
        assertThat(Palette.choose("auto", true, null).enabled()).isTrue();
        assertThat(Palette.choose("auto", false, null).enabled()).isFalse();
        assertThat(Palette.choose("auto", true, "").enabled()).as("an empty NO_COLOR is unset").isTrue();
        assertThat(Palette.choose("auto", true, "1").enabled()).isFalse();
        assertThat(Palette.choose("always", false, null).enabled()).isTrue();
        assertThat(Palette.choose("always", true, "1").enabled()).isFalse();
        assertThat(Palette.choose("never", true, null).enabled()).isFalse();
        assertThatThrownBy(() -> Palette.choose("sometimes", true, null)).isInstanceOf(IllegalArgumentException.class);
    }
}
