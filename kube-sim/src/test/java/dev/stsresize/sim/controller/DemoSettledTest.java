package dev.stsresize.sim.controller;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.SimCluster;
import dev.stsresize.sim.demo.DemoScenario;
import dev.stsresize.sim.http.RecordedRequest;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class DemoSettledTest {
    @Test
    void the_demo_cluster_is_settled_controllers_write_nothing_to_it() throws Exception {
        try (SimCluster sim = SimCluster.start()) {
            sim.load(DemoScenario.cluster().toArray(new ObjectNode[0]));
            long before = sim.store().resourceVersion();
            List<String> pods = sim.snapshot().stream().filter(o -> o.path("kind").asText().equals("Pod"))
                    .map(o -> o.at("/metadata/uid").asText()).sorted().toList();
            try (ControllerManager controllers = ControllerManager.start(sim, Speed.fast)) {
                assertThat(controllers.awaitIdle(Duration.ofSeconds(20))).as("controllers settle").isTrue();
                assertThat(controllers.failures()).isEmpty();
            }
            List<String> changed = sim.store().resourceVersion() == before ? List.of()
                    : sim.snapshot().stream().filter(o -> Long.parseLong(o.at("/metadata/resourceVersion").asText()) > before)
                            .map(o -> o.path("kind").asText() + " " + o.at("/metadata/namespace").asText() + "/"
                                    + o.at("/metadata/name").asText()).toList();
            assertThat(changed).as("objects the controllers wrote").isEmpty();
            assertThat(sim.snapshot().stream().filter(o -> o.path("kind").asText().equals("Pod"))
                    .map(o -> o.at("/metadata/uid").asText()).sorted().toList()).isEqualTo(pods);
            assertThat(sim.requests()).extracting(RecordedRequest::toString).isEmpty();
        }
    }
}
