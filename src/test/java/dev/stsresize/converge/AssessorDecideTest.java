package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.stsresize.plan.Decider;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.LiveState;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Assessor's decide (claims found by name) decides exactly as Decider.decide (every claim of the namespace). */
class AssessorDecideTest {
    @Test
    void every_row_of_the_decision_table_is_decided_the_same() throws IOException {
        try (InputStream in = AssessorDecideTest.class.getResourceAsStream("/decision-table/rows.yaml")) {
            JsonNode rows = new YAMLMapper().readTree(in);
            assertThat(rows.size()).isGreaterThan(10);
            for (JsonNode row : rows) {
                LiveState state = dev.stsresize.plan.DecisionTableRows.liveState(row);
                List<ObjectNode> declared = List.of((ObjectNode) row.get("declared"));
                assertThat(Assessor.decide(declared, state)).as(row.path("name").asText()).isEqualTo(Decider.decide(declared, state));
            }
        }
    }

    @Test
    void names_with_dashes_in_one_namespace_are_decided_the_same() {
        List<ObjectNode> declared = new ArrayList<>();
        List<ObjectNode> sets = new ArrayList<>();
        List<ObjectNode> claims = new ArrayList<>();
        for (String name : List.of("web", "web-app", "db", "db-backup", "db-0", "x")) {
            sets.add(sts(name, "10Gi", 3));
            declared.add(sts(name, "20Gi", 3));
            for (String claim : List.of("data-" + name + "-0", "data-" + name + "-1", "data-" + name + "-7", "logs-" + name + "-0",
                    "data-" + name + "-01", "data-" + name + "-", "data-" + name)) {
                claims.add(boundClaim(claim));
            }
        }
        LiveState state = withGp3(sets, claims);
        List<Decision> ours = Assessor.decide(declared, state);
        assertThat(ours).isEqualTo(Decider.decide(declared, state));
        // web's claims are web's alone: data-web-app-0 is web-app's
        assertThat(ours.stream().filter(d -> d.name().equals("web")).findFirst().orElseThrow().claims())
                .extracting(c -> c.name()).containsExactly("data-web-0", "data-web-1", "data-web-7");
    }

    /** A Bound claim of 10Gi of class gp3 in namespace ns. */
    static ObjectNode boundClaim(String name) {
        return Harness.yaml("{apiVersion: v1, kind: PersistentVolumeClaim, metadata: {name: " + name + ", namespace: ns},"
                + " spec: {storageClassName: gp3, resources: {requests: {storage: 10Gi}}}, status: {phase: Bound, capacity: {storage: 10Gi}}}");
    }

    /** What the cluster holds: these StatefulSets and claims, and the one class gp3, which can expand. */
    static LiveState withGp3(List<ObjectNode> sets, List<ObjectNode> claims) {
        return new LiveState(sets, claims, List.of(Harness.yaml("{apiVersion: storage.k8s.io/v1, kind: StorageClass, metadata: {name: gp3},"
                + " allowVolumeExpansion: true}")));
    }

    /** Enough StatefulSets that the second half is decided on another thread: the same decisions, in the same order. */
    @Test
    void many_statefulsets_decided_on_two_threads_are_decided_the_same() {
        List<ObjectNode> declared = new ArrayList<>();
        List<ObjectNode> sets = new ArrayList<>();
        List<ObjectNode> claims = new ArrayList<>();
        int n = 3 * Assessor.DECIDE_IN_TWO_FROM;
        for (int i = 0; i < n; i++) {
            String name = "s" + i;
            sets.add(sts(name, "10Gi", 1));
            // every third grows, every seventh changes its template, the rest stay
            declared.add(sts(name, i % 3 == 0 ? "20Gi" : "10Gi", 1));
            if (i % 7 == 0) {
                ((ObjectNode) declared.get(i).at("/spec/template/spec/containers/0")).put("image", "j");
            }
            claims.add(boundClaim("data-" + name + "-0"));
        }
        LiveState state = withGp3(sets, claims);
        List<Decision> ours = Assessor.decide(declared, state);
        assertThat(ours).hasSize(n).isEqualTo(Decider.decide(declared, state));
        assertThat(ours.stream().map(d -> d.verdict().label()).distinct().count()).isGreaterThan(1);
    }

    @Test
    void two_halves_keep_the_order_and_the_first_failure() {
        List<Integer> items = new ArrayList<>();
        for (int i = 0; i < 2 * Assessor.DECIDE_IN_TWO_FROM + 1; i++) {
            items.add(i);
        }
        List<String> threads = java.util.Collections.synchronizedList(new ArrayList<>());
        assertThat(Assessor.inTwo(items, i -> {
            threads.add(Thread.currentThread().getName());
            return i * 2;
        })).isEqualTo(items.stream().map(i -> i * 2).toList());
        assertThat(new java.util.HashSet<>(threads)).as("the halves decided on two threads").hasSize(2);
        java.util.function.Function<Integer, Integer> failing = i -> {
            if (i == 3 || i == items.size() - 2) {
                throw new IllegalStateException("item " + i);
            }
            return i;
        };
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> Assessor.inTwo(items, failing))).hasMessage("item 3");
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> Assessor.inTwo(items, i -> {
            if (i == items.size() - 2) {
                throw new IllegalStateException("item " + i);
            }
            return i;
        }))).hasMessage("item " + (items.size() - 2));
    }

    static ObjectNode sts(String name, String size, int replicas) {
        return Harness.yaml("{apiVersion: apps/v1, kind: StatefulSet, metadata: {name: " + name + ", namespace: ns}, spec: {replicas: "
                + replicas + ", serviceName: " + name + ", selector: {matchLabels: {app: " + name + "}}, template: {metadata: {labels: {app: "
                + name + "}}, spec: {containers: [{name: c, image: i}]}}, volumeClaimTemplates: [{metadata: {name: data}, spec: {"
                + "accessModes: [ReadWriteOnce], storageClassName: gp3, resources: {requests: {storage: " + size + "}}}}]}}");
    }

    private static List<ObjectNode> objects(JsonNode array) {
        List<ObjectNode> out = new ArrayList<>();
        array.forEach(n -> out.add((ObjectNode) n));
        return out;
    }
}
