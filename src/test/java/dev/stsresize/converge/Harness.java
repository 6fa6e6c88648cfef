package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.ClientEnvironment;
import dev.stsresize.cluster.ConnectionSettings;
import dev.stsresize.cluster.KubeClients;
import dev.stsresize.cluster.KubeCluster;
import dev.stsresize.cluster.RetryPolicy;
import dev.stsresize.cluster.RetryingCluster;
import dev.stsresize.cluster.Sleeper;
import dev.stsresize.sim.SimCluster;
import dev.stsresize.sim.controller.ControllerManager;
import dev.stsresize.sim.controller.Speed;
import dev.stsresize.sim.http.RecordedRequest;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

/**
 * A simulated cluster with its controllers at fast speed, a client of it through the product's
 * real connection path, a journal directory, and the progress events seen. Closing it checks the
 * safety invariant over its whole request log (see {@link SafetyInvariant}).
 */
final class Harness implements AutoCloseable {
    static final Duration DEADLINE = Duration.ofSeconds(30);
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    /** Every request of every harness of this JVM, for the suite-wide invariant test. */
    static final List<RecordedRequest> ALL_REQUESTS = new CopyOnWriteArrayList<>();

    final SimCluster sim;
    final ControllerManager controllers;
    final Path home;
    final Journal journal;
    final List<ProgressEvent> events = new CopyOnWriteArrayList<>();

    private Harness(SimCluster sim, ControllerManager controllers, Path home) {
        this.sim = sim;
        this.controllers = controllers;
        this.home = home;
        this.journal = new Journal(home.resolve("state").resolve("kubectl-stsresize"));
    }

    static Harness start(Path home, List<ObjectNode> objects) {
        return start(home, objects, Speed.fast.timings());
    }

    /** With the controllers' pace given: e.g. a kubelet slower to expand file systems than the rest. */
    static Harness start(Path home, List<ObjectNode> objects, dev.stsresize.sim.controller.Timings timings) {
        SimCluster sim = SimCluster.start();
        sim.load(objects.toArray(ObjectNode[]::new));
        ControllerManager controllers = ControllerManager.start(sim, timings);
        Harness h = new Harness(sim, controllers, home);
        h.settle();
        return h;
    }

    /** Waits for the controllers to go idle (nothing left to sync). */
    void settle() {
        try {
            controllers.awaitIdle(DEADLINE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    Path kubeconfig() {
        try {
            Path f = home.resolve("kubeconfig");
            Files.createDirectories(home);
            sim.writeKubeconfig(f);
            return f;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Map<String, String> env() {
        return Map.of("HOME", home.toString(), "XDG_STATE_HOME", home.resolve("state").toString(),
                "KUBECONFIG", kubeconfig().toString());
    }

    /** The port as the commands build it (retries with short backoffs), as the admin or a context's user. */
    Cluster cluster(String context) {
        ConnectionSettings s = ConnectionSettings.defaults().withKubeconfig(kubeconfig());
        if (context != null) {
            s = s.withContext(context);
        }
        var conn = KubeClients.connect(s, new ClientEnvironment(Map.of(), home, home.resolve("no-sa"), false), "test",
                new PrintWriter(new StringWriter()));
        return new RetryingCluster(new KubeCluster(conn),
                new RetryPolicy(6, Duration.ofMillis(20), Duration.ofMillis(200), Duration.ofSeconds(2)), Sleeper.REAL);
    }

    Cluster cluster() {
        return cluster(null);
    }

    Converger converger(Cluster cluster, String operator, GateAnswers gate, Checkpoint checkpoint) {
        return new Converger(cluster, Clock.systemUTC(), journal, operator, sim.url(), gate, events::add, checkpoint);
    }

    Converger converger() {
        return converger(cluster(), "alice@laptop 1", GateAnswers.YES, Checkpoint.NONE);
    }

    static ConvergeOptions options() {
        return ConvergeOptions.defaults().withTimeout(DEADLINE);
    }

    ObjectNode get(String apiVersion, String kind, String ns, String name) {
        return sim.get(apiVersion, kind, ns, name);
    }

    ObjectNode sts(String ns, String name) {
        return get("apps/v1", "StatefulSet", ns, name);
    }

    ObjectNode claim(String ns, String name) {
        return get("v1", "PersistentVolumeClaim", ns, name);
    }

    ObjectNode pod(String ns, String name) {
        return get("v1", "Pod", ns, name);
    }

    List<RecordedRequest> writes() {
        List<RecordedRequest> out = new ArrayList<>();
        for (RecordedRequest r : sim.requests()) {
            // a dry run is no write; an access or rules review creates nothing
            if (r.isWrite() && !r.dryRun() && !r.path().contains("selfsubjectaccessreviews") && !r.path().contains("selfsubjectrulesreviews")) {
                out.add(r);
            }
        }
        return out;
    }

    static void await(String what, BooleanSupplier condition) {
        dev.stsresize.testkit.Await.until(what, DEADLINE, java.time.Duration.ofMillis(5), condition);
    }

    static ObjectNode yaml(String s) {
        return dev.stsresize.testkit.TestObjects.yaml(s);
    }

    static String uid(JsonNode o) {
        return o.path("metadata").path("uid").asText();
    }

    @Override
    public void close() {
        List<RecordedRequest> log = new ArrayList<>(sim.requests());
        ALL_REQUESTS.addAll(log);
        controllers.close();
        sim.close();
        assertThat(SafetyInvariant.violations(log)).as("safety invariant over this test's requests").isEmpty();
    }
}
