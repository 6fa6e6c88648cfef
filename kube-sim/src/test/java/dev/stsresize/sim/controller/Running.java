package dev.stsresize.sim.controller;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.SimCluster;
import dev.stsresize.sim.registry.DeleteOptions;
import dev.stsresize.sim.registry.Registry;
import dev.stsresize.sim.registry.WriteOptions;
import dev.stsresize.sim.store.ResourceType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * A simulated cluster with its controllers at fast speed, and the waits tests need: conditions
 * polled against a generous deadline, never a duration asserted.
 */
final class Running implements AutoCloseable {
    static final Duration DEADLINE = Duration.ofSeconds(20);

    final SimCluster sim;
    final ControllerManager controllers;

    private Running(SimCluster sim, ControllerManager controllers) {
        this.sim = sim;
        this.controllers = controllers;
    }

    /** Starts the cluster, loads {@code objects} and the CSIDriver of {@link #storageClass}'s driver, then starts the controllers. */
    static Running with(ObjectNode... objects) {
        return with(Timings.FAST, objects);
    }

    /** The same at another pace. */
    static Running with(Timings timings, ObjectNode... objects) {
        SimCluster sim = SimCluster.start();
        sim.load(csiDriver(CSI_DRIVER));
        sim.load(objects);
        return new Running(sim, ControllerManager.start(sim, timings));
    }

    static ObjectNode yaml(String s) {
        return dev.stsresize.testkit.TestObjects.yaml(s);
    }

    static final String CSI_DRIVER = "sim.csi.example";

    static ObjectNode csiDriver(String name) {
        return yaml("apiVersion: storage.k8s.io/v1\nkind: CSIDriver\nmetadata: {name: " + name + "}\nspec: {attachRequired: true}\n");
    }

    static ObjectNode storageClass(String name, String resizer) {
        return yaml("apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: " + name
                + "\n  annotations: {sim.stsresize.dev/resizer: " + resizer + "}\nprovisioner: " + CSI_DRIVER + "\n"
                + "allowVolumeExpansion: true\n");
    }

    /** StatefulSet "db" in default: 2 replicas, one claim template "data" of {@code size} on {@code cls}. */
    static ObjectNode db(String cls, String size, String extraSpec) {
        return yaml(dev.stsresize.testkit.TestObjects.db("default", cls, size, "postgres:16") + indent(extraSpec));
    }

    private static String indent(String extra) {
        if (extra == null || extra.isBlank()) {
            return "";
        }
        StringBuilder b = new StringBuilder();
        for (String line : extra.split("\n")) {
            b.append("  ").append(line).append('\n');
        }
        return b.toString();
    }

    ResourceType type(String resource) {
        String group = switch (resource) {
            case "statefulsets", "controllerrevisions" -> "apps";
            case "storageclasses" -> "storage.k8s.io";
            case "poddisruptionbudgets" -> "policy";
            default -> "";
        };
        return sim.catalog().byResource(group, resource).orElseThrow();
    }

    Registry registry() {
        return sim.registry();
    }

    ObjectNode create(String resource, ObjectNode o) {
        return registry().create(type(resource), o.path("metadata").path("namespace").asText("default"), o, WriteOptions.by("test"));
    }

    /** A merge patch, as kubectl patch sends it: no resourceVersion, so no conflict with the controllers' writes. */
    ObjectNode patch(String resource, String name, String mergePatch) {
        return registry().patch(type(resource), "default", name, "", dev.stsresize.sim.patch.Patches.Type.MERGE, yaml(mergePatch),
                WriteOptions.by("kubectl-patch")).object();
    }

    ObjectNode get(String resource, String name) {
        ResourceType t = type(resource);
        return sim.store().get(t, t.namespaced() ? "default" : "", name);
    }

    List<ObjectNode> list(String resource) {
        return new ArrayList<>(sim.store().list(type(resource), ""));
    }

    Registry.Deleted delete(String resource, String name, String policy, String uid) {
        return registry().delete(type(resource), "default", name, new DeleteOptions(policy, null, uid, null, false));
    }

    /** Waits until {@code condition} holds, failing with {@code what} after the deadline. */
    static void await(String what, BooleanSupplier condition) {
        dev.stsresize.testkit.Await.until(what, DEADLINE, Duration.ofMillis(2), condition);
    }

    /** Waits until {@code value} is non-null and returns it. */
    static <T> T awaitValue(String what, Supplier<T> value) {
        Object[] box = new Object[1];
        await(what, () -> (box[0] = value.get()) != null);
        @SuppressWarnings("unchecked")
        T t = (T) box[0];
        return t;
    }

    boolean ready(String pod) {
        ObjectNode p = get("pods", pod);
        return p != null && "Running".equals(p.at("/status/phase").asText()) && ObjectMeta.conditionTrue(p, "Ready")
                && !p.path("metadata").has("deletionTimestamp");
    }

    void awaitReady(String... pods) {
        for (String p : pods) {
            await(p + " is Running and Ready", () -> ready(p));
        }
    }

    List<String> eventReasons(String involvedName) {
        List<String> out = new ArrayList<>();
        for (ObjectNode e : list("events")) {
            if (e.at("/involvedObject/name").asText().equals(involvedName)) {
                out.add(e.path("reason").asText());
            }
        }
        return out;
    }

    ObjectNode event(String involvedName, String reason) {
        for (ObjectNode e : list("events")) {
            if (e.at("/involvedObject/name").asText().equals(involvedName) && e.path("reason").asText().equals(reason)) {
                return e;
            }
        }
        return null;
    }

    static String uid(JsonNode o) {
        return o.path("metadata").path("uid").asText();
    }

    @Override
    public void close() {
        controllers.close();
        sim.close();
        assertThat(controllers.failures()).as("controller sync failures").isEmpty();
    }
}
