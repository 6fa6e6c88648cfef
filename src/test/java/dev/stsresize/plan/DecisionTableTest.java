package dev.stsresize.plan;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Runs every row of src/test/resources/decision-table/rows.yaml (format: README.md beside it). */
class DecisionTableTest {
    static Stream<Arguments> rows() throws IOException {
        try (InputStream in = DecisionTableTest.class.getResourceAsStream("/decision-table/rows.yaml")) {
            JsonNode rows = new YAMLMapper().readTree(in);
            List<Arguments> out = new ArrayList<>();
            rows.forEach(r -> out.add(Arguments.of(r.path("name").asText(), r)));
            return out.stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void decides(String name, JsonNode row) {
        Decision d = decide(row);
        JsonNode expect = row.path("expect");
        String context = name + "\n  decided: " + describe(d);

        assertThat(d.verdict().label()).as(context).isEqualTo(expect.path("verdict").asText());
        String reason = d instanceof Refusal r ? r.reason().label() : null;
        assertThat(reason).as(context).isEqualTo(expect.hasNonNull("reason") ? expect.get("reason").asText() : null);
        assertThat(d.recreate()).as(context).isEqualTo(expect.path("recreate").asBoolean());

        List<String> grown = d.claimsToGrow().stream().map(c -> c.name() + " " + c.request() + " -> " + c.target()).toList();
        List<String> expected = new ArrayList<>();
        expect.path("grow").forEach(g -> expected.add(g.path("claim").asText() + " " + Quantity.parse(g.path("from").asText())
                + " -> " + Quantity.parse(g.path("to").asText())));
        assertThat(grown).as(context).containsExactlyElementsOf(expected);

        expect.path("detail").forEach(s -> assertThat(d.detail()).as(context).contains(s.asText()));
        if (expect.has("warnings")) {
            assertThat(d.warnings()).as(context).hasSize(expect.get("warnings").size());
            for (int i = 0; i < d.warnings().size(); i++) {
                assertThat(d.warnings().get(i)).as(context).contains(expect.get("warnings").get(i).asText());
            }
        }
        if (expect.has("claims")) {
            assertThat(d.claims().stream().map(ClaimState::name).toList()).as(context)
                    .containsExactlyElementsOf(texts(expect.get("claims")));
        }
        if (expect.has("scaledAway")) {
            assertThat(d.claims().stream().filter(ClaimState::scaledAway).map(ClaimState::name).toList()).as(context)
                    .containsExactlyElementsOf(texts(expect.get("scaledAway")));
        }
    }

    /** How the table's inputs reach decide(): the same path the plan command takes. */
    static Decision decide(JsonNode row) {
        List<Decision> all = Decider.decide(List.of((ObjectNode) row.get("declared")), DecisionTableRows.liveState(row));
        assertThat(all).hasSize(1);
        return all.get(0);
    }

    private static List<ObjectNode> objects(JsonNode array) {
        List<ObjectNode> out = new ArrayList<>();
        array.forEach(n -> out.add((ObjectNode) n));
        return out;
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static String describe(Decision d) {
        return d.verdict().label() + " recreate=" + d.recreate() + " detail=" + d.detail() + " warnings=" + d.warnings()
                + " claims=" + d.claims();
    }
}
