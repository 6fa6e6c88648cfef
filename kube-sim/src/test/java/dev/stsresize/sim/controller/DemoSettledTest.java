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

    @Test
    void the_copy_scenario_is_settled_and_its_class_provisions_a_bigger_volume_that_a_copy_pod_fills() throws Exception {
        try (SimCluster sim = SimCluster.start()) {
            sim.load(DemoScenario.copyCluster().toArray(new ObjectNode[0]));
            long before = sim.store().resourceVersion();
            try (ControllerManager controllers = ControllerManager.start(sim, Speed.fast)) {
                assertThat(controllers.awaitIdle(Duration.ofSeconds(20))).as("controllers settle").isTrue();
                assertThat(sim.store().resourceVersion()).as("nothing written to the settled scenario").isEqualTo(before);
                ObjectNode cls = sim.get("storage.k8s.io/v1", "StorageClass", "", "local-path");
                assertThat(cls.has("allowVolumeExpansion")).as("a class that cannot expand").isFalse();
                String node = sim.get("v1", "Pod", "files", "web-1").at("/spec/nodeName").asText();
                ObjectNode tmp = Running.yaml("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data-web-1-new, namespace: files}\n"
                        + "spec: {storageClassName: local-path, accessModes: [ReadWriteOnce], resources: {requests: {storage: 2Gi}}}\n");
                sim.registry().create(sim.type("v1", "PersistentVolumeClaim"), "files", tmp, dev.stsresize.sim.registry.WriteOptions.by("test"));
                ObjectNode pod = CopyPodTest.copyPod("data-web-1", "data-web-1-new");
                ((ObjectNode) pod.get("metadata")).put("namespace", "files");
                ((ObjectNode) pod.get("spec")).put("nodeName", node);
                sim.registry().create(sim.type("v1", "Pod"), "files", pod, dev.stsresize.sim.registry.WriteOptions.by("test"));
                Running.await("the copy pod ends", () -> "Succeeded".equals(sim.get("v1", "Pod", "files", "stsresize-copy-data-web-1")
                        .at("/status/phase").asText()));
                ObjectNode grown = sim.get("v1", "PersistentVolumeClaim", "files", "data-web-1-new");
                assertThat(grown.at("/status/capacity/storage").asText()).isEqualTo("2Gi");
                ObjectNode copied = sim.get("v1", "Pod", "files", "stsresize-copy-data-web-1");
                assertThat(sim.containerLogs().lines(copied.at("/metadata/uid").asText(), "copy", 1)).containsExactly("stsresize-copy: verified");
                assertThat(controllers.failures()).isEmpty();
            }
        }
    }
}
