package dev.stsresize.tui;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.stsresize.cluster.ClientEnvironment;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.ConnectionSettings;
import dev.stsresize.cluster.KubeClients;
import dev.stsresize.converge.Journal;
import dev.stsresize.sim.SimCluster;
import dev.stsresize.sim.controller.ControllerManager;
import dev.stsresize.sim.controller.Speed;
import dev.stsresize.sim.demo.DemoScenario;
import dev.stsresize.tui.source.ClusterDecisions;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The demo's cluster on a simulated server in this process (controllers at fast speed, settled), the
 * port to it as the commands connect, and the UI's decision source reading the demo's manifest from
 * a file under {@code home}: what a test of the UI's sources starts from.
 */
final class DemoOnSim implements AutoCloseable {
    final SimCluster sim;
    final ControllerManager controllers;
    final Cluster cluster;
    final ClusterDecisions source;

    private DemoOnSim(SimCluster sim, ControllerManager controllers, Cluster cluster, ClusterDecisions source) {
        this.sim = sim;
        this.controllers = controllers;
        this.cluster = cluster;
        this.source = source;
    }

    static DemoOnSim start(Path home) throws IOException, InterruptedException {
        return start(home, DemoScenario.cluster(), DemoScenario.manifest());
    }

    /** The copy demo: files/web on local-path, which cannot expand (the list decides it without --copy). */
    static DemoOnSim startCopy(Path home) throws IOException, InterruptedException {
        return start(home, DemoScenario.copyCluster(), DemoScenario.copyManifest());
    }

    private static DemoOnSim start(Path home, List<ObjectNode> objects, List<ObjectNode> declared) throws IOException, InterruptedException {
        SimCluster sim = SimCluster.start();
        sim.load(objects.toArray(ObjectNode[]::new));
        ControllerManager controllers = ControllerManager.start(sim, Speed.fast);
        controllers.awaitIdle(Duration.ofSeconds(30));
        Path kubeconfig = home.resolve("kubeconfig");
        sim.writeKubeconfig(kubeconfig);
        Cluster cluster = KubeClients.connect(ConnectionSettings.defaults().withKubeconfig(kubeconfig),
                new ClientEnvironment(Map.of(), home, home.resolve("no-sa"), false), "test", new PrintWriter(new StringWriter())).cluster();
        Path manifest = home.resolve("manifest.yaml");
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        StringBuilder b = new StringBuilder();
        for (ObjectNode o : declared) {
            b.append(yaml.writeValueAsString(o));
        }
        Files.writeString(manifest, b.toString(), StandardCharsets.UTF_8);
        ClusterDecisions source = new ClusterDecisions(cluster, new ByteArrayInputStream(new byte[0]), List.of(manifest.toString()),
                false, "default", false, true, "sim", sim.url(), new Journal(home.resolve("state")));
        return new DemoOnSim(sim, controllers, cluster, source);
    }

    @Override
    public void close() {
        controllers.close();
        sim.close();
    }
}
