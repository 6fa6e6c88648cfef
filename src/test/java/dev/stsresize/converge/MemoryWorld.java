package dev.stsresize.converge;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.demo.DemoScenario;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The demo cluster in a {@link MemoryCluster}, with the controllers a converge relies on reduced to
 * what it reads back: the resizer (an online class grows the capacity at once, an offline one leaves
 * FileSystemResizePending), the StatefulSet controller (a created or applied StatefulSet observes its
 * generation and adopts the orphaned pods, revisions and, under whenDeleted Delete, claims) and the
 * garbage collector (an orphan delete removes the owner references to the deleted UID). Each reaction
 * is synchronous, so a whole run takes milliseconds and no wait needs a watch.
 */
final class MemoryWorld {
    final MemoryCluster cluster = new MemoryCluster();
    /** What the run reports, as a view gets it. */
    final Heard heard = new Heard();
    final StopRequest stop = new StopRequest();
    final Journal journal;
    /** The steps the tests advance on this world: one for all its runs, as a driver has. */
    final Steps steps;
    /** Whether the StatefulSet controller adopts (off: a controller that is down). */
    boolean controllerRuns = true;
    /** What the resizer does to a claim it is asked to grow, after the class's behaviour (a failure, say). */
    java.util.function.Consumer<ObjectNode> resizer = c -> { };

    /** What else reacts to each write, after this world's controllers (a copy's, {@link CopyWorld}). */
    java.util.function.Consumer<MemoryCluster.Call> alsoReacts = c -> { };

    MemoryWorld(Path home) {
        this(home, DemoScenario.cluster(), Checkpoint.NONE);
    }

    /** {@code objects} (a scenario of {@link DemoScenario}) in memory, namespaces left out; {@code checkpoint} told each write. */
    MemoryWorld(Path home, List<ObjectNode> objects, Checkpoint checkpoint) {
        journal = new Journal(home);
        steps = new Steps(cluster, cluster.time, journal, "alice@laptop 7", "https://memory", heard, checkpoint, stop);
        for (ObjectNode o : objects) {
            if (!o.path("kind").asText().equals("Namespace")) {
                cluster.put(o);
            }
        }
        cluster.afterWrite = this::react;
    }

    static ObjectNode declared(String name) {
        return Demo.declared(name);
    }

    Converger converger(GateAnswers gate) {
        return new Converger(cluster, cluster.time, journal, "alice@laptop 7", "https://memory", gate, heard, Checkpoint.NONE, stop);
    }

    Assessed assess(ObjectNode declared) {
        return assess(declared, Assessor.Depth.APPLY);
    }

    Assessed assess(ObjectNode declared, Assessor.Depth depth) {
        return new Assessor(cluster, heard).assess(List.of(declared), false, depth, false, Optional.empty()).items().get(0);
    }

    /** The demo's StatefulSet {@code name}, as its manifest declares it, assessed for apply. */
    Assessed assess(String name) {
        return assess(declared(name));
    }

    /** A run of the demo's StatefulSet {@code name}, before its first turn. */
    Convergence start(String name) {
        return Convergence.start(steps, assess(name), options(), true);
    }

    /** A run whose operator says yes at both gates: to the growth, and to the orphan delete of the StatefulSet standing now. */
    Convergence startAllowed(String name) {
        Convergence m = start(name);
        m.answerGrow(true);
        m.allowDelete(new Steps.DeleteAllowed(m.namespace(), name, uid("StatefulSet", m.namespace(), name)));
        return m;
    }

    Steps.Checked checked(String name) {
        return steps.check(assess(name), options(), true);
    }

    /** A run past its lock, for a test to take its steps one by one (or to hold the lock a run would want). */
    Steps.Run locked(String name) {
        return steps.lock(checked(name), options(), true).run();
    }

    /** Whether a run on {@code ns/name} left nothing a later run would find: no Lease held unfinished, no journal entry. */
    boolean released(String ns, String name) {
        return LeaseLock.unfinishedLease(cluster, ns, name).isEmpty() && journal.read(ns, name).isEmpty();
    }

    /** Deleted by someone else with propagationPolicy=Orphan: gone, and the garbage collector has cleared its dependents' owners. */
    void orphanDeleted(String ns, String name) {
        String uid = uid("StatefulSet", ns, name);
        cluster.remove("StatefulSet", ns, name);
        orphan(ns, uid);
    }

    /** The kubelets of postgres's three pods (demo-node-0 to -2) report each pod's claim at {@code capacityBytes}. */
    void kubeletsReportPostgresClaimsAt(long capacityBytes) {
        for (int i = 0; i < 3; i++) {
            cluster.summaries.put("demo-node-" + i, MemoryCluster.json("{'pods':[{'volume':[{'pvcRef':{'name':'data-postgres-" + i
                    + "','namespace':'shop'},'capacityBytes':" + capacityBytes + "}]}]}"));
        }
    }

    static ConvergeOptions options() {
        return ConvergeOptions.defaults().withTimeout(Duration.ofMinutes(1)).withFsTimeout(Duration.ofSeconds(30));
    }

    ObjectNode sts(String ns, String name) {
        return cluster.get("StatefulSet", ns, name).orElseThrow();
    }

    ObjectNode claim(String ns, String name) {
        return cluster.get("PersistentVolumeClaim", ns, name).orElseThrow();
    }

    String uid(String kind, String ns, String name) {
        return cluster.get(kind, ns, name).map(Objects::uid).orElse("");
    }

    private void react(MemoryCluster.Call c) {
        switch (c.method()) {
            case "patchClaimStorage" -> resize(c.namespace(), c.name());
            case "applyStatefulSet", "createStatefulSet" -> {
                if (controllerRuns) {
                    adopt(c.namespace(), c.name());
                }
            }
            case "deleteStatefulSetOrphan" -> orphan(c.namespace(), c.detail().substring("uid=".length()));
            default -> { }
        }
        alsoReacts.accept(c);
    }

    private void resize(String ns, String name) {
        cluster.edit("PersistentVolumeClaim", ns, name, c -> {
            String request = c.at("/spec/resources/requests/storage").asText();
            ObjectNode status = Objects.child(c, "status");
            if (c.at("/spec/storageClassName").asText().equals("standard-offline")) {
                status.putArray("conditions").addObject().put("type", "FileSystemResizePending").put("status", "True");
                status.putObject("allocatedResourceStatuses").put("storage", "NodeResizePending");
            } else {
                Objects.child(status, "capacity").put("storage", request);
            }
            resizer.accept(c);
        });
    }

    private void adopt(String ns, String name) {
        ObjectNode sts = sts(ns, name);
        String uid = Objects.uid(sts);
        String selector = Objects.selector(sts.at("/spec/selector"));
        cluster.edit("StatefulSet", ns, name, s -> {
            ObjectNode status = Objects.child(s, "status");
            status.put("observedGeneration", s.at("/metadata/generation").asLong(1));
            status.put("replicas", s.at("/spec/replicas").asInt());
            status.put("readyReplicas", s.at("/spec/replicas").asInt());
        });
        boolean claimsOwned = "Delete".equals(sts.at("/spec/persistentVolumeClaimRetentionPolicy/whenDeleted").asText());
        for (String kind : List.of("Pod", "ControllerRevision", "PersistentVolumeClaim")) {
            for (ObjectNode o : cluster.all(kind, ns)) {
                boolean ours = kind.equals("PersistentVolumeClaim") ? claimsOwned && Objects.name(o).endsWith(name + "-" + ordinal(o))
                        : matches(o, selector) && Objects.controllerUid(o).isEmpty();
                if (ours) {
                    cluster.edit(kind, ns, Objects.name(o), x -> {
                        ArrayNode refs = ((ObjectNode) x.path("metadata")).putArray("ownerReferences");
                        refs.addObject().put("apiVersion", "apps/v1").put("kind", "StatefulSet").put("name", name).put("uid", uid)
                                .put("controller", !kind.equals("PersistentVolumeClaim")).put("blockOwnerDeletion", true);
                    });
                }
            }
        }
    }

    private static String ordinal(ObjectNode claim) {
        String n = Objects.name(claim);
        return n.substring(n.lastIndexOf('-') + 1);
    }

    private static boolean matches(ObjectNode o, String selector) {
        for (String term : selector.split(",")) {
            String[] kv = term.split("=", 2);
            if (!kv[1].equals(o.at("/metadata/labels").path(kv[0]).asText(null))) {
                return false;
            }
        }
        return true;
    }

    private void orphan(String ns, String uid) {
        for (String kind : List.of("Pod", "ControllerRevision", "PersistentVolumeClaim")) {
            for (ObjectNode o : cluster.all(kind, ns)) {
                if (Objects.ownedBy(o, uid)) {
                    cluster.edit(kind, ns, Objects.name(o), x -> ((ObjectNode) x.path("metadata")).remove("ownerReferences"));
                }
            }
        }
    }

    /** The copy's deletes this world allows besides (none: a grow deletes no claim and no pod; {@link CopyWorld} sets its own). */
    java.util.function.Predicate<MemoryCluster.Call> copyDeleteAllowed = d -> false;

    /** The safety facts every run keeps: no claim delete, no StatefulSet delete but an orphan one with a UID. */
    void assertSafe() {
        for (MemoryCluster.Call d : cluster.deletes()) {
            switch (d.method()) {
                case "deleteStatefulSetOrphan" -> {
                    if (!d.detail().matches("uid=\\S+ propagationPolicy=Orphan")) {
                        throw new AssertionError("an orphan delete without its UID: " + d);
                    }
                }
                case "deleteRecordSecret" -> {
                    if (!d.detail().matches("uid=\\S+") || !d.name().startsWith("stsresize-")) {
                        throw new AssertionError("a Secret delete that is not a run record's by UID: " + d);
                    }
                }
                default -> {
                    if (!copyDeleteAllowed.test(d)) {
                        throw new AssertionError("a delete the converge may not send: " + d);
                    }
                }
            }
        }
    }
}
