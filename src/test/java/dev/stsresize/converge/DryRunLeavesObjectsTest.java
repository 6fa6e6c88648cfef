package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.demo.DemoScenario;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every path that proves a run with the server's dry runs leaves every StatefulSet standing with its
 * UID, read from the objects: the simulated server reads a DELETE's options where delete.go does
 * (the body), so a dryRun sent anywhere else is a real orphan delete here, as on a real server.
 */
class DryRunLeavesObjectsTest {
    @TempDir Path home;

    @Test
    void apply_dry_run_server_leaves_every_statefulset_standing_with_its_uid() {
        try (Harness h = Harness.start(home, DemoScenario.cluster())) {
            Map<String, String> before = statefulSets(h);
            Path manifest = Commands.manifest(home, DemoScenario.manifest());
            Commands.Run r = Commands.run(h, "apply", "-f", manifest.toString(), "--dry-run=server");
            assertThat(r.out() + r.err()).as(r.describe()).contains("nothing written");
            assertThat(h.sim.requests()).as("the orphan delete was proven").anyMatch(q -> q.method().equals("DELETE"));
            assertThat(statefulSets(h)).as(r.describe()).isEqualTo(before);
        }
    }

    @Test
    void plan_leaves_every_statefulset_standing_with_its_uid() {
        try (Harness h = Harness.start(home, DemoScenario.cluster())) {
            Map<String, String> before = statefulSets(h);
            Commands.Run r = Commands.run(h, "plan", "-f", Commands.manifest(home, DemoScenario.manifest()).toString());
            assertThat(statefulSets(h)).as(r.describe()).isEqualTo(before);
        }
    }

    /** The UI's check step (tui.source.ClusterSteps CHECK) assesses one StatefulSet at apply depth: it proves the delete too. */
    @Test
    void the_apply_depth_assessment_of_the_uis_check_step_leaves_the_statefulset_standing() {
        try (Harness h = Harness.start(home, DemoScenario.cluster())) {
            Map<String, String> before = statefulSets(h);
            ObjectNode postgres = DemoScenario.manifest().stream()
                    .filter(o -> o.at("/metadata/name").asText().equals("postgres")).findFirst().orElseThrow();
            Assessment a = new Assessor(h.cluster(), Progress.NONE).assess(List.of(postgres), false, Assessor.Depth.APPLY, false,
                    Optional.empty());
            assertThat(a.items().get(0).failure()).isNull();
            assertThat(h.sim.requests()).as("the orphan delete was proven").anyMatch(q -> q.method().equals("DELETE"));
            assertThat(statefulSets(h)).isEqualTo(before);
        }
    }

    /** namespace/name → uid of every StatefulSet not being deleted. */
    static Map<String, String> statefulSets(Harness h) {
        Map<String, String> out = new TreeMap<>();
        for (ObjectNode o : h.sim.snapshot()) {
            if (o.path("kind").asText().equals("StatefulSet") && o.at("/metadata/deletionTimestamp").isMissingNode()) {
                out.put(o.at("/metadata/namespace").asText() + "/" + o.at("/metadata/name").asText(), o.at("/metadata/uid").asText());
            }
        }
        return out;
    }
}
