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

    @Test
    void eachClaimSaysItsFileSystemAndEachPodWhetherTheRunRestartedIt() {
        ObjectNode doc = ResultDocument.of(List.of(new StatefulSetResult("shop", "db", Outcome.CONVERGED, "", "adopted",
                List.of(new ClaimResult("data-db-0", "1Gi", "2Gi", "2Gi", dev.stsresize.converge.FileSystem.GROWN, 2147483648L),
                        new ClaimResult("data-db-1", "1Gi", "2Gi", "1Gi", dev.stsresize.converge.FileSystem.WAITS_FOR_RESTART, -1),
                        new ClaimResult("data-db-2", "1Gi", "2Gi", "1Gi")),
                List.of(new PodResult("db-0", "a", "c", true), new PodResult("db-1", "b", "b")), List.of())));
        JsonNode claims = doc.at("/items/0/claims");
        assertThat(claims.get(0).path("fileSystem").asText()).isEqualTo("grown");
        assertThat(claims.get(0).path("fileSystemBytes").asLong()).isEqualTo(2147483648L);
        assertThat(claims.get(1).path("fileSystem").asText()).isEqualTo("waits-for-restart");
        assertThat(claims.get(1).has("fileSystemBytes")).as("the kubelet reported none").isFalse();
        assertThat(claims.get(2).has("fileSystem")).as("not followed by the run").isFalse();
        JsonNode pods = doc.at("/items/0/pods");
        assertThat(pods.get(0).path("restarted").asBoolean()).isTrue();
        assertThat(pods.get(1).path("restarted").asBoolean()).isFalse();
    }
}
