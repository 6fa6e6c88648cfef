package dev.stsresize.converge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.CopyPodLog;
import dev.stsresize.cluster.PodLog;
import dev.stsresize.plan.CopyOptIn;
import dev.stsresize.sim.demo.DemoScenario;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * The copy scenario ({@link DemoScenario#copyCluster}: StatefulSet files/web, two claims of 1Gi on local-path, a class
 * that provisions but cannot expand) in a {@link MemoryWorld}, with the controllers a copy migration relies on reduced
 * to what it reads back, each reacting synchronously to the write that wakes it:
 * <ul>
 *   <li>the PV controller and the provisioner (pkg/controller/volume/persistentvolume/pv_controller.go,
 *       WaitForFirstConsumer): a claim without {@code volumeName} is provisioned when a pod that uses it is created (a new
 *       PV at its request, the class's reclaim policy, claimRef with the claim's UID, both Bound); a claim created with
 *       {@code volumeName} is bound to that PV when the PV's claimRef names it; a deleted claim's PV goes Released under
 *       Retain and is deleted under Delete (reclaimVolume: its data lost, which {@link #assertSafe} reports); a PV
 *       re-pointed at a claim name without UID is Available (syncVolume: pre-bound);</li>
 *   <li>the kubelet running a copy pod: Running with its {@code start} line at once, Succeeded (exit 0) or Failed (exit
 *       3) at the next look at it, with a log in the {@link CopyPodLog} format; {@link #copyLog} lets a test give another
 *       log (differing, cut short, of another claim);</li>
 *   <li>the StatefulSet controller (pkg/controller/statefulset/stateful_set_control.go): on a create or apply, after
 *       {@link MemoryWorld}'s adoption, each missing pod of an ordinal created Ready on its claim (a missing claim
 *       created from the template, empty: reported); an evicted pod re-created while the StatefulSet stands;</li>
 *   <li>the eviction API (pkg/registry/core/pod/storage/eviction.go): {@link #budgetRefusesOnce} plants the 429 of a
 *       PodDisruptionBudget.</li>
 * </ul>
 * What no correct copy may do is collected in {@link #violations} as it happens and checked by {@link #assertSafe}: a
 * claim deleted without its copy proven, or while a pod mounts it, or whose PV is not Retain; a PV deleted; a claimRef
 * removed; a claim the StatefulSet controller had to create empty.
 */
final class CopyWorld {
    static final String NS = "files";
    static final String STS = "web";
    static final String SIZE = "2Gi";

    final MemoryWorld w;
    final MemoryCluster cluster;
    /** The log a copy pod of {@code claim} prints, from the one a faithful copy prints (the default: that one, whole). */
    BiFunction<String, String, PodLog> copyLog = (claim, log) -> new PodLog(log, true);
    /** Whether a copy pod ends at all (off: it runs past every deadline). */
    boolean copiesEnd = true;
    /** What no correct copy does, as it happened. */
    final List<String> violations = new ArrayList<>();
    /** The claims (original and temporary) whose copy pod ended with the faithful log: the only ones a run may delete. */
    final Set<String> proven = new HashSet<>();
    /** What the run told its checkpoint after each write, in order: where a crash can happen. */
    final List<String> checkpoints = new ArrayList<>();
    /** The process dies right after the write of this checkpoint (1: the first; 0: never). */
    int diesAfter;
    /** The UIDs of the copy pods created, the only pods a run may delete. */
    final Set<String> copyPods = new HashSet<>();
    private final Map<String, ObjectNode> podsAsDeclared = new HashMap<>();

    CopyWorld(Path home) {
        w = new MemoryWorld(home, DemoScenario.copyCluster(), write -> {
            checkpoints.add(write);
            if (checkpoints.size() == diesAfter) {
                throw new IllegalStateException("the process dies after: " + write);
            }
        });
        cluster = w.cluster;
        for (ObjectNode pod : cluster.all("Pod", NS)) {
            podsAsDeclared.put(Objects.name(pod), pod);
        }
        w.alsoReacts = this::react;
        w.copyDeleteAllowed = d -> switch (d.method()) {
            case "deleteCopyPod" -> copyPods.contains(d.detail().substring("uid=".length()));
            case "deleteClaim" -> proven.contains(d.name());
            default -> false;
        };
    }

    /** What the operator chose with {@code --copy}, {@code --copy-class} and {@code --copy-image}. */
    CopyOptIn optIn = CopyOptIn.withDefaults();

    /** The options of a copy with the defaults (each claim's own class, busybox). */
    static ConvergeOptions options() {
        return MemoryWorld.options().withCopy(CopyOptIn.withDefaults());
    }

    ConvergeOptions chosen() {
        return MemoryWorld.options().withCopy(optIn);
    }

    /** The copy scenario's StatefulSet as its manifest declares it (2Gi), assessed with {@code --copy}. */
    Assessed assess() {
        return new Assessor(cluster, w.heard).copying(optIn).assess(DemoScenario.copyManifest(), false,
                Assessor.Depth.APPLY, false, Optional.empty()).items().get(0);
    }

    /** A copy run whose operator said yes to the copy and typed the StatefulSet's name, before its first turn. */
    Convergence start() {
        Convergence m = Convergence.start(w.steps, assess(), chosen(), true);
        m.answerGrow(true);
        m.allowDelete(new Steps.DeleteAllowed(NS, STS, w.uid("StatefulSet", NS, STS)));
        return m;
    }

    /** A crashed run taken up by {@code resume} (same operator), driven to its end. */
    StatefulSetResult resume() {
        return resume(w.stop);
    }

    /** A stopped run taken up by {@code resume} in a new process, with its own {@code stop}, driven to its end. */
    StatefulSetResult resume(StopRequest stop) {
        PendingRun pending = new RunRecords(cluster, w.journal, "https://memory").find(NS, STS, true).orElseThrow();
        return new Converger(cluster, cluster.time, w.journal, "alice@laptop 7", "https://memory", GateAnswers.YES, w.heard,
                Checkpoint.NONE, stop).resume(pending, DemoScenario.copyManifest().get(0), chosen(), true);
    }

    /** The StatefulSet controller, down for a while, up again: it creates the pods missing. */
    void controllerBack() {
        w.controllerRuns = true;
        createMissingPods();
    }

    /** The next eviction of a pod is refused by its PodDisruptionBudget (429), as the eviction API answers; then allowed. */
    void budgetRefusesOnce() {
        cluster.failNext("evictPod", MemoryCluster.error(429, "TooManyRequests",
                "Cannot evict pod as it would violate the pod's disruption budget."));
    }

    /** The writes of {@code method} sent for real (the dry runs of the checks left out), in order. */
    List<MemoryCluster.Call> sent(String method) {
        return cluster.realWrites().stream().filter(c -> c.method().equals(method)).toList();
    }

    static String claim(int ordinal) {
        return "data-" + STS + "-" + ordinal;
    }

    ObjectNode claimOf(int ordinal) {
        return w.claim(NS, claim(ordinal));
    }

    Optional<ObjectNode> volume(String name) {
        return cluster.get("PersistentVolume", "default", name);
    }

    Optional<ObjectNode> pod(String name) {
        return cluster.get("Pod", NS, name);
    }

    /** The log a faithful copy of {@code claim} prints, per the contract copy.sh keeps (kube-sim's CopyPod prints the same). */
    static String faithfulLog(String claim) {
        String sha = sha256(claim);
        return "stsresize-copy: start src-files=12 src-bytes=40960\n"
                + "stsresize-copy: progress files=6 bytes=20480\n"
                + "stsresize-copy: progress files=12 bytes=40960\n"
                + "stsresize-copy: manifest src sha256=" + sha + " files=12 bytes=40960\n"
                + "stsresize-copy: manifest dst sha256=" + sha + " files=12 bytes=40960\n"
                + "stsresize-copy: filesystem ext4 size-kib=2097152 used-kib=40\n"
                + "stsresize-copy: verified\n";
    }

    /** The safety facts of every copy and of every run ({@link MemoryWorld#assertSafe}). */
    void assertSafe() {
        if (!violations.isEmpty()) {
            throw new AssertionError("the copy broke its rules: " + violations);
        }
        w.assertSafe();
    }

    // ---- the controllers ----------------------------------------------------------------------------

    private void react(MemoryCluster.Call c) {
        switch (c.method()) {
            case "createClaim" -> bindPreBound(c.name());
            case "createCopyPod" -> startCopy(c.name());
            case "deleteClaim" -> claimDeleted(c.name(), c.detail().substring("uid=".length()));
            case "pointVolumeAtClaim" -> repointed(c.name());
            case "evictPod" -> {
                if (w.controllerRuns && cluster.get("StatefulSet", NS, STS).isPresent()) {
                    createPod(c.name(), w.uid("StatefulSet", NS, STS));
                }
            }
            case "applyStatefulSet", "createStatefulSet" -> {
                if (w.controllerRuns) {
                    createMissingPods();
                }
            }
            default -> { }
        }
    }

    /** A claim created with volumeName: bound when the PV is there and its claimRef names it (no UID, or this one). */
    private void bindPreBound(String name) {
        ObjectNode claim = w.claim(NS, name);
        String volume = claim.at("/spec/volumeName").asText("");
        if (volume.isEmpty()) {
            return; // WaitForFirstConsumer: provisioned when a pod uses it
        }
        Optional<ObjectNode> pv = volume(volume);
        if (pv.isEmpty()) {
            return;
        }
        JsonNode ref = pv.get().at("/spec/claimRef");
        String refUid = ref.path("uid").asText("");
        if (!NS.equals(ref.path("namespace").asText()) || !name.equals(ref.path("name").asText())
                || !(refUid.isEmpty() || refUid.equals(Objects.uid(claim)))) {
            return; // pv_controller.go: a volume bound to another claim is not taken; the claim stays Pending
        }
        bind(claim, pv.get());
    }

    private void bind(ObjectNode claim, ObjectNode pv) {
        String uid = Objects.uid(claim);
        cluster.edit("PersistentVolume", "default", Objects.name(pv), v -> {
            Objects.child(Objects.child(v, "spec"), "claimRef").put("uid", uid);
            Objects.child(v, "status").put("phase", "Bound");
        });
        cluster.edit("PersistentVolumeClaim", NS, Objects.name(claim), c -> {
            Objects.child(c, "spec").put("volumeName", Objects.name(pv));
            ObjectNode st = Objects.child(c, "status");
            st.put("phase", "Bound");
            st.set("accessModes", pv.at("/spec/accessModes").deepCopy());
            Objects.child(st, "capacity").put("storage", pv.at("/spec/capacity/storage").asText());
        });
    }

    /** A new volume for a claim nothing bound yet: at its request, with its class's reclaim policy. */
    private void provision(String name) {
        ObjectNode claim = w.claim(NS, name);
        if (!claim.at("/spec/volumeName").asText("").isEmpty()) {
            return;
        }
        String cls = claim.at("/spec/storageClassName").asText();
        String policy = cluster.get("StorageClass", "default", cls).map(s -> s.path("reclaimPolicy").asText("Delete")).orElse("Delete");
        ObjectNode pv = MemoryCluster.json("{'apiVersion':'v1','kind':'PersistentVolume','metadata':{'name':'pvc-" + Objects.uid(claim)
                + "'},'spec':{'accessModes':['ReadWriteOnce'],'capacity':{'storage':'" + claim.at("/spec/resources/requests/storage")
                .asText() + "'},'persistentVolumeReclaimPolicy':'" + policy + "','storageClassName':'" + cls + "','volumeMode':'Filesystem',"
                + "'claimRef':{'apiVersion':'v1','kind':'PersistentVolumeClaim','namespace':'" + NS + "','name':'" + name + "'}},"
                + "'status':{'phase':'Available'}}");
        bind(claim, cluster.put(pv));
    }

    private void startCopy(String podName) {
        ObjectNode pod = pod(podName).orElseThrow();
        copyPods.add(Objects.uid(pod));
        String source = volumeClaim(pod, CopyPodSpec.SOURCE_VOLUME);
        provision(volumeClaim(pod, CopyPodSpec.DESTINATION_VOLUME));
        cluster.edit("Pod", NS, podName, p -> Objects.child(p, "status").put("phase", "Running"));
        // while it runs: its start line and its first progress line, as copy.sh prints them, then a tool's stderr line
        // (kubectl logs interleaves them; only the script's prefixed lines are read)
        cluster.logs.put(NS + "/" + podName, new PodLog(String.join("\n", faithfulLog(source).lines().limit(2).toList())
                + "\ncp: can't preserve permissions of '/dst/lost+found'\n", true));
        if (copiesEnd) {
            cluster.onWatch("Pod", NS, podName, () -> finishCopy(podName, source));
        }
    }

    private void finishCopy(String podName, String source) {
        Optional<ObjectNode> pod = pod(podName);
        if (pod.isEmpty()) {
            return;
        }
        String faithful = faithfulLog(source);
        PodLog log = copyLog.apply(source, faithful);
        cluster.logs.put(NS + "/" + podName, log);
        boolean verified = log.text().contains("stsresize-copy: verified\n");
        if (log.complete() && log.text().equals(faithful)) {
            proven.add(source);
            proven.add(volumeClaim(pod.get(), CopyPodSpec.DESTINATION_VOLUME));
        }
        int exit = verified ? 0 : 3;
        cluster.edit("Pod", NS, podName, p -> {
            ObjectNode st = Objects.child(p, "status");
            st.put("phase", exit == 0 ? "Succeeded" : "Failed");
            st.putArray("containerStatuses").addObject().put("name", CopyPodLog.CONTAINER).putObject("state").putObject("terminated")
                    .put("exitCode", exit).put("reason", exit == 0 ? "Completed" : "Error");
        });
    }

    private void claimDeleted(String name, String uid) {
        if (!proven.contains(name)) {
            violations.add("claim " + name + " deleted before its copy was proven");
        }
        for (ObjectNode pod : cluster.all("Pod", NS)) {
            if (name.equals(volumeClaim(pod, "data")) || pod.at("/spec/volumes").toString().contains("\"claimName\":\"" + name + "\"")) {
                violations.add("claim " + name + " deleted while pod " + Objects.name(pod) + " mounts it");
            }
        }
        for (ObjectNode pv : cluster.list("PersistentVolume", Optional.empty(), "")) {
            if (!uid.equals(pv.at("/spec/claimRef/uid").asText())) {
                continue;
            }
            if ("Retain".equals(pv.at("/spec/persistentVolumeReclaimPolicy").asText())) {
                cluster.edit("PersistentVolume", "default", Objects.name(pv), v -> Objects.child(v, "status").put("phase", "Released"));
            } else {
                violations.add("PersistentVolume " + Objects.name(pv) + " deleted with claim " + name + " by its reclaim policy "
                        + pv.at("/spec/persistentVolumeReclaimPolicy").asText());
                cluster.remove("PersistentVolume", "default", Objects.name(pv));
            }
        }
    }

    private void repointed(String volume) {
        ObjectNode pv = volume(volume).orElseThrow();
        JsonNode ref = pv.at("/spec/claimRef");
        if (ref.path("name").asText("").isEmpty()) {
            violations.add("PersistentVolume " + volume + "'s claimRef removed: any claim of its class may take it");
            return;
        }
        if (cluster.get("PersistentVolumeClaim", NS, ref.path("name").asText()).isEmpty()) {
            cluster.edit("PersistentVolume", "default", volume, v -> Objects.child(v, "status").put("phase", "Available"));
        }
    }

    private void createMissingPods() {
        ObjectNode sts = w.sts(NS, STS);
        for (int i = 0; i < sts.at("/spec/replicas").asInt(); i++) {
            if (pod(STS + "-" + i).isEmpty()) {
                createPod(STS + "-" + i, Objects.uid(sts));
            }
        }
    }

    /** The pod of an ordinal as the controller makes it, Ready on its claim (created empty from the template if missing). */
    private void createPod(String name, String stsUid) {
        String claim = "data-" + name;
        if (cluster.get("PersistentVolumeClaim", NS, claim).isEmpty()) {
            violations.add("claim " + claim + " created empty by the StatefulSet controller");
            return;
        }
        ObjectNode pod = podsAsDeclared.get(name).deepCopy();
        ObjectNode meta = (ObjectNode) pod.path("metadata");
        meta.remove(List.of("uid", "resourceVersion"));
        ArrayNode refs = meta.putArray("ownerReferences");
        refs.addObject().put("apiVersion", "apps/v1").put("kind", "StatefulSet").put("name", STS).put("uid", stsUid).put("controller", true)
                .put("blockOwnerDeletion", true);
        cluster.put(pod);
    }

    private static String volumeClaim(JsonNode pod, String volume) {
        for (JsonNode v : pod.at("/spec/volumes")) {
            if (volume.equals(v.path("name").asText())) {
                return v.at("/persistentVolumeClaim/claimName").asText("");
            }
        }
        return "";
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
