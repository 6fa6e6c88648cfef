package dev.stsresize.sim.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.store.StoreEvent;
import java.util.ArrayList;
import java.util.List;

/**
 * The scheduler and the kubelets of three simulated nodes, for what the resize procedure depends
 * on: a pod is scheduled once its claims are bound (asking WaitForFirstConsumer claims to bind by
 * selecting a node, as the scheduler's volume binder does), goes Pending → Running → Ready after a
 * delay each, finishes a claim's file system expansion (NodeExpandVolume) when it mounts the claim
 * at start — or, for a class whose resizer is {@code online}, while it runs, some seconds after the
 * resizer ({@link #expandInUse}) — and, once deleted,
 * disappears after its grace period (capped by the speed).
 */
final class Kubelet extends Controller {
    static final String SELECTED_NODE = "volume.kubernetes.io/selected-node";
    private final Api kubelet;
    private final Api scheduler;
    private final Pacer pacer = new Pacer();
    private final CopyPod copies;
    /** Copy pods that printed their progress line. */
    private final java.util.Set<String> halfway = java.util.concurrent.ConcurrentHashMap.newKeySet();

    Kubelet(Context ctx) {
        super(ctx);
        this.kubelet = ctx.api("kubelet");
        this.scheduler = ctx.api("kube-scheduler");
        this.copies = new CopyPod(ctx, kubelet);
    }

    @Override
    String name() {
        return "kubelet";
    }

    @Override
    String component() {
        return ControllerManager.KUBELET;
    }

    @Override
    List<Key> keysFor(StoreEvent e) {
        if (e.resource().equals(ctx.kinds().pods())) {
            if (e.type() == StoreEvent.Type.DELETED) {
                pacer.forget(ObjectMeta.uid(e.object()));
                ctx.sim().containerLogs().forget(ObjectMeta.uid(e.object()));
                halfway.remove(ObjectMeta.uid(e.object()));
                return List.of();
            }
            return List.of(new Key(e.namespace(), e.name()));
        }
        if (e.resource().equals(ctx.kinds().claims())) {
            List<Key> keys = new ArrayList<>();
            for (ObjectNode pod : kubelet.list(ctx.kinds().pods(), e.namespace())) {
                if (claimNames(pod).contains(e.name())) {
                    keys.add(new Key(e.namespace(), ObjectMeta.name(pod)));
                }
            }
            return keys;
        }
        return List.of();
    }

    @Override
    List<Key> initialKeys() {
        return kubelet.list(ctx.kinds().pods(), "").stream().map(p -> new Key(ObjectMeta.ns(p), ObjectMeta.name(p))).toList();
    }

    @Override
    void sync(Key key) {
        ObjectNode pod = kubelet.get(ctx.kinds().pods(), key.namespace(), key.name());
        if (pod == null) {
            return;
        }
        String uid = ObjectMeta.uid(pod);
        Timings t = ctx.timings();
        if (ObjectMeta.deleting(pod)) {
            long grace = pod.path("metadata").path("deletionGracePeriodSeconds").asLong(0);
            // a pod with finalizers stays Terminating until they are removed (its MODIFIED event brings it back)
            if (pacer.due(this, key, uid + "/gone", t.graceMillis(grace)) && ObjectMeta.finalizers(pod).isEmpty()) {
                // the kubelet's final DELETE with gracePeriodSeconds=0
                ctx.sim().store().remove(ctx.kinds().pods(), key.namespace(), key.name(), false);
            }
            return;
        }
        String phase = pod.path("status").path("phase").asText("Pending");
        if (!"Pending".equals(phase) && !"Running".equals(phase)) {
            return;
        }
        if (pod.path("spec").path("nodeName").asText("").isEmpty()) {
            String unschedulable = unschedulable(pod);
            if (unschedulable != null) {
                markUnschedulable(pod, unschedulable);
            } else if (claimsBound(pod) && pacer.due(this, key, uid + "/schedule", t.scheduleMillis())) {
                schedule(pod);
            }
            return;
        }
        if ("Pending".equals(phase)) {
            if (claimsBound(pod) && pacer.due(this, key, uid + "/start", t.startMillis())) {
                start(pod);
            }
            return;
        }
        if (!ObjectMeta.conditionTrue(pod, "Ready")) {
            if (pacer.due(this, key, uid + "/ready", t.readyMillis())) {
                ready(pod);
            }
            return;
        }
        if (CopyPod.is(pod)) {
            // the copy script runs to its end: the pod stays Succeeded or Failed until deleted (restartPolicy Never)
            long half = Math.max(1, t.copyMillis() / 2);
            if (!halfway.contains(uid)) {
                if (!pacer.due(this, key, uid + "/copy-half", half)) {
                    return;
                }
                copies.progress(pod);
                halfway.add(uid);
            }
            if (pacer.due(this, key, uid + "/copy-end", half)) {
                copies.finish(pod);
                halfway.remove(uid);
            }
            return;
        }
        for (String claimName : claimNames(pod)) {
            ObjectNode claim = kubelet.get(ctx.kinds().claims(), key.namespace(), claimName);
            if (claim != null && NodeExpansion.pending(claim) && !NodeExpansion.refused(claim)) {
                expandInUse(key, pod, claim, t);
            }
        }
    }

    /**
     * The online expansion of a mounted volume. The kubelet sees the grown volume only when it processes the
     * pod's volumes again (desired_state_of_world_populator.go processPodVolumes skips a pod already processed
     * until SyncPod asks for it again, then checkVolumeFSResize marks the volume; the reconciler's
     * mountOrAttachVolumes then runs ExpandInUseVolume): seconds after the resizer, {@code nodeExpandMillis}.
     * It marks NodeResizeInProgress, then the driver grows the file system (online) or refuses while the
     * volume is published (offline: the claim waits for a pod to mount it anew, as {@link #start} does).
     */
    private void expandInUse(Key key, ObjectNode pod, ObjectNode claim, Timings t) {
        String id = ObjectMeta.uid(pod) + "/expand/" + ObjectMeta.name(claim);
        boolean online = "online".equals(ctx.resizerOf(claim));
        if (!NodeExpansion.inProgress(claim)) {
            if (pacer.due(this, key, id, t.nodeExpandMillis())) {
                ObjectNode marked = NodeExpansion.begin(ctx, kubelet, claim);
                if (!online) {
                    NodeExpansion.refuse(ctx, kubelet, marked, pod);
                }
            }
        } else if (online && pacer.due(this, key, id + "/grow", Math.max(1, t.nodeExpandMillis() / 4))) {
            NodeExpansion.finish(ctx, kubelet, claim, pod);
        }
    }

    static List<String> claimNames(JsonNode pod) {
        List<String> out = new ArrayList<>();
        for (JsonNode v : pod.path("spec").path("volumes")) {
            String c = v.path("persistentVolumeClaim").path("claimName").asText("");
            if (!c.isEmpty()) {
                out.add(c);
            }
        }
        return out;
    }

    /** True when every claim is bound; asks unbound WaitForFirstConsumer claims to bind to this pod's node. */
    private boolean claimsBound(ObjectNode pod) {
        boolean bound = true;
        for (String name : claimNames(pod)) {
            ObjectNode claim = kubelet.get(ctx.kinds().claims(), ObjectMeta.ns(pod), name);
            if (claim == null || ObjectMeta.deleting(claim)) {
                bound = false;
                continue;
            }
            if (!"Bound".equals(claim.path("status").path("phase").asText())) {
                bound = false;
                ObjectNode annotations = claim.withObject("/metadata").withObject("annotations");
                if (!annotations.has(SELECTED_NODE)) {
                    annotations.put(SELECTED_NODE, nodeFor(pod));
                    scheduler.update(ctx.kinds().claims(), claim);
                }
            }
        }
        return bound;
    }

    /** Why the scheduler's volume filters reject every node (VolumeBinding, VolumeRestrictions), or null. */
    private String unschedulable(JsonNode pod) {
        for (String name : claimNames(pod)) {
            ObjectNode claim = kubelet.get(ctx.kinds().claims(), ObjectMeta.ns(pod), name);
            String why = null;
            if (claim == null) {
                why = "persistentvolumeclaim \"" + name + "\" not found";
            } else if (ObjectMeta.deleting(claim)) {
                why = "persistentvolumeclaim \"" + name + "\" is being deleted";
            } else if (!"Bound".equals(claim.path("status").path("phase").asText())) {
                ObjectNode sc = ctx.storageClassOf(claim);
                boolean delayed = sc != null && "WaitForFirstConsumer".equals(sc.path("volumeBindingMode").asText());
                if (!delayed) {
                    why = "pod has unbound immediate PersistentVolumeClaims";
                }
            }
            if (why != null) {
                return "0/3 nodes are available: " + why + ". preemption: 0/3 nodes are available: 3 Preemption is not "
                        + "helpful for scheduling.";
            }
        }
        return null;
    }

    private void markUnschedulable(ObjectNode pod, String message) {
        ObjectNode st = pod.withObject("/status");
        for (JsonNode c : st.path("conditions")) {
            if (c.path("type").asText().equals("PodScheduled") && c.path("message").asText().equals(message)) {
                return; // told already
            }
        }
        st.put("phase", "Pending");
        st.remove("conditions");
        st.putArray("conditions").addObject().put("type", "PodScheduled").put("status", "False").putNull("lastProbeTime")
                .put("lastTransitionTime", kubelet.store().now()).put("reason", "Unschedulable").put("message", message);
        scheduler.updateStatus(ctx.kinds().pods(), pod);
        ctx.events().warning("default-scheduler", pod, "FailedScheduling", message);
    }

    private static String nodeFor(JsonNode pod) {
        String node = pod.path("spec").path("nodeName").asText("");
        return node.isEmpty() ? "sim-node-" + Math.floorMod(ObjectMeta.name(pod).hashCode(), 3) : node;
    }

    private void schedule(ObjectNode pod) {
        String node = nodeFor(pod);
        pod.withObject("/spec").put("nodeName", node);
        pod = scheduler.update(ctx.kinds().pods(), pod);
        ObjectNode st = pod.withObject("/status");
        st.put("phase", "Pending");
        st.remove("conditions"); // an Unschedulable PodScheduled condition is replaced, not amended
        condition(st, "PodScheduled", "True");
        st.put("qosClass", "BestEffort");
        kubelet.updateStatus(ctx.kinds().pods(), pod);
        ctx.events().normal("default-scheduler", pod, "Scheduled", "Successfully assigned " + ObjectMeta.ns(pod) + "/"
                + ObjectMeta.name(pod) + " to " + node);
    }

    private void start(ObjectNode pod) {
        // mounting the claims finishes a pending file system expansion, whatever the resizer
        for (String claimName : claimNames(pod)) {
            ObjectNode claim = kubelet.get(ctx.kinds().claims(), ObjectMeta.ns(pod), claimName);
            if (claim != null && NodeExpansion.pending(claim)) {
                NodeExpansion.finish(ctx, kubelet, claim, pod);
            }
        }
        String now = kubelet.store().now();
        ObjectNode st = pod.withObject("/status");
        st.put("phase", "Running");
        condition(st, "PodReadyToStartContainers", "True");
        condition(st, "Initialized", "True");
        condition(st, "Ready", "False");
        condition(st, "ContainersReady", "False");
        condition(st, "PodScheduled", "True");
        st.put("hostIP", "10.0.0." + (10 + Math.floorMod(pod.path("spec").path("nodeName").asText().hashCode(), 3)));
        st.put("podIP", "10.244." + Math.floorMod(ObjectMeta.name(pod).hashCode(), 3) + "." + (2 + Math.floorMod(ObjectMeta.uid(pod).hashCode(), 250)));
        st.put("startTime", now);
        ArrayNode cs = st.putArray("containerStatuses");
        for (JsonNode c : pod.path("spec").path("containers")) {
            ObjectNode s = cs.addObject();
            s.put("name", c.path("name").asText());
            s.put("image", c.path("image").asText());
            s.put("ready", false);
            s.put("restartCount", 0);
            s.put("started", true);
            s.put("containerID", "containerd://" + Integer.toHexString((ObjectMeta.uid(pod) + "/" + c.path("name").asText()).hashCode()));
            s.putObject("state").putObject("running").put("startedAt", now);
        }
        pod = kubelet.updateStatus(ctx.kinds().pods(), pod);
        if (CopyPod.is(pod)) {
            copies.started(pod);
        }
        ctx.events().normal("kubelet", pod, "Started", "Started container " + pod.path("spec").path("containers").path(0).path("name").asText());
    }

    private void ready(ObjectNode pod) {
        ObjectNode st = pod.withObject("/status");
        condition(st, "Ready", "True");
        condition(st, "ContainersReady", "True");
        for (JsonNode c : st.path("containerStatuses")) {
            ((ObjectNode) c).put("ready", true);
        }
        kubelet.updateStatus(ctx.kinds().pods(), pod);
    }

    private void condition(ObjectNode status, String type, String value) {
        ArrayNode conds = status.withArray("conditions");
        for (JsonNode c : conds) {
            if (c.path("type").asText().equals(type)) {
                if (!c.path("status").asText().equals(value)) {
                    ((ObjectNode) c).put("status", value).put("lastTransitionTime", kubelet.store().now());
                }
                return;
            }
        }
        conds.addObject().put("type", type).put("status", value).putNull("lastProbeTime")
                .put("lastTransitionTime", kubelet.store().now());
    }
}
