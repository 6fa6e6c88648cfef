package dev.stsresize.render;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.converge.Outcome;
import dev.stsresize.converge.StatefulSetResult;
import dev.stsresize.converge.StatefulSetResult.ClaimResult;
import dev.stsresize.converge.StatefulSetResult.PodResult;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResultDocumentTest {
    @Test
    void reasonAppearsOnlyForOutcomesThatHaveOne() {
        ObjectNode doc = ResultDocument.of(List.of(
                new StatefulSetResult("shop", "postgres", Outcome.CONVERGED, "", "adopted", List.of(), List.of(), List.of()),
                new StatefulSetResult("shop", "redis", Outcome.REFUSED, "shrink", "shrink: …", List.of(), List.of(), List.of())));
        JsonNode items = doc.path("items");
        assertThat(items.get(0).has("reason")).as(doc.toPrettyString()).isFalse();
        assertThat(items.get(1).path("reason").asText()).as(doc.toPrettyString()).isEqualTo("shrink");
    }

    @Test
    void claimsAndPodsAreListedByNumericOrdinal() {
        ObjectNode doc = ResultDocument.of(List.of(new StatefulSetResult("shop", "db", Outcome.CONVERGED, "", "adopted",
                List.of(new ClaimResult("data-db-10", "1Gi", "2Gi", "2Gi"), new ClaimResult("data-db-9", "1Gi", "2Gi", "2Gi"),
                        new ClaimResult("data-db-0", "1Gi", "2Gi", "2Gi")),
                List.of(new PodResult("db-1", "a", "a"), new PodResult("db-0", "b", "b")), List.of())));
        JsonNode item = doc.path("items").get(0);
        assertThat(item.path("claims").findValuesAsText("name")).containsExactly("data-db-0", "data-db-9", "data-db-10");
        assertThat(item.path("pods").findValuesAsText("name")).containsExactly("db-0", "db-1");
    }
}
