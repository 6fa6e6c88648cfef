package dev.stsresize.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.stsresize.plan.ClaimState;
import dev.stsresize.plan.Decider;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.DecisionTableRows;
import dev.stsresize.plan.Quantity;
import dev.stsresize.plan.Refusal;
import dev.stsresize.sim.SimCluster;
import dev.stsresize.sim.controller.ControllerManager;
import dev.stsresize.sim.controller.Timings;
import dev.stsresize.sim.fault.Fault;
import dev.stsresize.sim.fault.FaultRule;
import dev.stsresize.sim.http.RecordedRequest;
import dev.stsresize.sim.registry.DeleteOptions;
import dev.stsresize.sim.store.ResourceType;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The ONE decision table (src/test/resources/decision-table/rows.yaml) run through the Java decision
 * AND the Job's script, for real: each row's live objects and StorageClasses loaded into one simulated
 * cluster (a namespace per row), the script run with kubectl and jq against it. Same verdict line,
 * same exit code, same end state of claims and StatefulSet. A row's {@code script} field states a
 * deliberate difference (README.md beside the rows); nothing is skipped silently.
 */
class ScriptDecisionTableTest {
    /**
     * Only the garbage collector acts (it finishes the orphan delete); the StatefulSet controller,
     * binder, resizer and kubelet never get to, so a row's objects stay exactly as the row wrote them.
     */
    static final long NEVER = 24L * 3600 * 1000;
    static final Timings GC_ONLY = new Timings(NEVER, 2, NEVER, NEVER, NEVER, NEVER, NEVER, NEVER, NEVER, 5);

    static SimCluster sim;
    static ControllerManager controllers;
    @TempDir static Path dir;
    static Path kubeconfig;

    @BeforeAll
    static void start() {
        sim = SimCluster.start();
        controllers = ControllerManager.start(sim, GC_ONLY);
        kubeconfig = ScriptRun.adminKubeconfig(sim, dir);
    }

    @AfterAll
    static void stop() {
        ScriptRun.stop(controllers, sim);
    }

    static Stream<Arguments> rows() throws IOException {
        try (InputStream in = ScriptDecisionTableTest.class.getResourceAsStream("/decision-table/rows.yaml")) {
            JsonNode rows = new YAMLMapper().readTree(in);
            List<Arguments> out = new ArrayList<>();
            for (int i = 0; i < rows.size(); i++) {
                out.add(Arguments.of(rows.get(i).path("name").asText(), i, rows.get(i)));
            }
            return out.stream();
        }
    }

    /** The verdict, reason and exit code one runner must reach for a row. */
    record Outcome(String verdict, String reason, int exit) {
        static Outcome of(String verdict, String reason) {
            return new Outcome(verdict, reason, switch (verdict) {
                case "refused" -> 2;
                case "blocked" -> 1;
                default -> 0;
            });
        }

        String line(String namespace, String name) {
            return "verdict " + namespace + "/" + name + " " + verdict + (reason == null ? "" : " " + reason);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void the_script_decides_and_converges_as_the_java_decision(String name, int index, JsonNode original) {
        String missing = ScriptRun.missingTools();
        assumeTrue(missing == null, missing);
        JsonNode row = inNamespaceOfRow(original, index);
        ObjectNode declared = (ObjectNode) row.get("declared");
        String ns = declared.path("metadata").path("namespace").asText();
        String sts = declared.path("metadata").path("name").asText();

        Decision java = javaDecision(row);
        Outcome javaOutcome = Outcome.of(java.verdict().label(), java instanceof Refusal r ? r.reason().label() : null);
        assertThat(javaOutcome.verdict()).as("the Java decision still gives the row's verdict").isEqualTo(row.at("/expect/verdict").asText());
        JsonNode difference = row.path("script");
        Outcome expected = difference.isObject()
                ? Outcome.of(difference.path("verdict").asText(), difference.hasNonNull("reason") ? difference.get("reason").asText() : null)
                : javaOutcome;
        if (difference.isObject()) {
            assertThat(difference.path("why").asText()).as("a deliberate difference says why").isNotBlank();
            assertThat(expected).as("a `script` field must state a real difference, else drop it").isNotEqualTo(javaOutcome);
        }

        Map<String, String> before = load(row);
        long since = sim.requests().size();
        // a row without csiDrivers is one where they cannot be read: the server refuses the script's LIST as RBAC would
        FaultRule hidden = row.has("csiDrivers") ? null : sim.faults().add(FaultRule.on("list", "csidrivers", null, Fault.status(403,
                "Forbidden", "csidrivers.storage.k8s.io is forbidden: User \"system:serviceaccount:" + ns + ":sts-volume-resize\" cannot"
                        + " list resource \"csidrivers\" in API group \"storage.k8s.io\" at the cluster scope")));
        ScriptRun.Result r;
        try {
            r = ScriptRun.run(kubeconfig, ns, Declared.json(List.of(declared)), dir);
        } finally {
            if (hidden != null) {
                sim.faults().clear();
            }
        }
        String context = name + " (namespace " + ns + ")\njava: " + java.verdict().label() + " " + java.detail() + "\nscript: " + r;

        assertThat(r.verdicts()).as(context).containsExactly(expected.line(ns, sts));
        assertThat(r.exit()).as(context).isEqualTo(expected.exit());

        // the end state: exactly the claims the Java decision grows, to its targets, and the StatefulSet gone exactly for grow
        boolean converged = expected.exit() == 0;
        Map<String, Quantity> grown = new HashMap<>();
        if (converged) {
            for (ClaimState c : java.claimsToGrow()) {
                grown.put(c.name(), c.target());
            }
        }
        for (JsonNode claim : row.path("claims")) {
            String cn = claim.at("/metadata/name").asText();
            ObjectNode now = sim.get("v1", "PersistentVolumeClaim", claim.at("/metadata/namespace").asText(), cn);
            assertThat(now).as(context + "\nclaim " + cn + " still exists").isNotNull();
            Quantity want = grown.getOrDefault(cn, Quantity.parse(before.get(cn)));
            assertThat(Quantity.parse(now.at("/spec/resources/requests/storage").asText())).as(context + "\nclaim " + cn)
                    .isEqualByComparingTo(want);
        }
        ObjectNode liveNow = sim.get("apps/v1", "StatefulSet", ns, sts);
        if (converged && "grow".equals(expected.verdict())) {
            assertThat(liveNow).as(context + "\nthe StatefulSet is orphan-deleted").isNull();
        } else if (row.path("live").isObject()) {
            assertThat(liveNow).as(context + "\nthe StatefulSet is left alone").isNotNull();
            assertThat(liveNow.at("/metadata/uid").asText()).isEqualTo(row.at("/live/metadata/uid").asText());
        }
        List<RecordedRequest> writes = sim.requests().subList((int) since, sim.requests().size()).stream()
                .filter(q -> q.isWrite() && !q.dryRun()).toList();
        for (RecordedRequest w : writes) {
            assertThat(w.resource()).as(context + "\nonly claims are patched and StatefulSets deleted: " + w.method() + " " + w.path())
                    .isIn("persistentvolumeclaims", "statefulsets");
            if (w.method().equals("DELETE")) {
                assertThat(w.resource()).as("never a claim deleted").isEqualTo("statefulsets");
                assertThat(w.body()).as("Orphan and a UID precondition").contains("\"propagationPolicy\":\"Orphan\"")
                        .contains("\"uid\":\"" + row.at("/live/metadata/uid").asText() + "\"");
            }
        }
        if (!converged) {
            assertThat(writes).as(context + "\na refused or blocked run writes nothing").isEmpty();
        }
    }

    /** The row's objects moved to namespace row-N (row-N-ORIG for another namespace), so rows never meet. */
    static JsonNode inNamespaceOfRow(JsonNode original, int index) {
        ObjectNode row = original.deepCopy();
        List<JsonNode> namespaced = new ArrayList<>();
        namespaced.add(row.get("declared"));
        if (row.path("live").isObject()) {
            namespaced.add(row.get("live"));
        }
        row.path("claims").forEach(namespaced::add);
        for (JsonNode o : namespaced) {
            ObjectNode meta = ((ObjectNode) o).withObject("/metadata");
            String orig = meta.path("namespace").asText("default");
            meta.put("namespace", "row-" + index + (orig.equals("default") ? "" : "-" + orig));
        }
        return row;
    }

    static Decision javaDecision(JsonNode row) {
        List<Decision> all = Decider.decide(List.of((ObjectNode) row.get("declared")), DecisionTableRows.liveState(row));
        assertThat(all).hasSize(1);
        return all.get(0);
    }

    /** The row's StorageClasses and CSIDrivers replace the cluster's; its live StatefulSet and claims are loaded. Returns each claim's request. */
    static Map<String, String> load(JsonNode row) {
        ResourceType classes = sim.type("storage.k8s.io/v1", "StorageClass");
        for (ObjectNode sc : sim.store().list(classes, "")) {
            sim.registry().delete(classes, "", sc.at("/metadata/name").asText(), new DeleteOptions(null, null, null, null, false));
        }
        objects(row.path("classes")).forEach(sim::load);
        ResourceType drivers = sim.type("storage.k8s.io/v1", "CSIDriver");
        for (ObjectNode d : sim.store().list(drivers, "")) {
            sim.registry().delete(drivers, "", d.at("/metadata/name").asText(), new DeleteOptions(null, null, null, null, false));
        }
        objects(row.path("csiDrivers")).forEach(sim::load);
        if (row.path("live").isObject()) {
            sim.load((ObjectNode) row.get("live"));
        }
        Map<String, String> requests = new HashMap<>();
        for (ObjectNode c : objects(row.path("claims"))) {
            ObjectNode stored = sim.load(c).get(0);
            requests.put(stored.at("/metadata/name").asText(), stored.at("/spec/resources/requests/storage").asText());
        }
        return requests;
    }

    static List<ObjectNode> objects(JsonNode array) {
        List<ObjectNode> out = new ArrayList<>();
        array.forEach(n -> out.add((ObjectNode) n));
        return out;
    }
}
