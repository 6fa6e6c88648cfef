package dev.stsresize.sim.usage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.admission.Quantities;
import dev.stsresize.sim.store.Catalog;
import dev.stsresize.sim.store.ResourceType;
import dev.stsresize.sim.store.Store;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What the kubelets have mounted: the volumes of every Running pod bound to a node. A claim's volume is
 * mounted only when its claim is Bound (the kubelet waits for it otherwise), and then carries the claim's
 * {@code status.capacity}; an emptyDir is the node's filesystem. Other volume kinds (configMap, secret,
 * projected…) are left out: nothing the plugin reads.
 */
public final class MountedVolumes {
    /** The node filesystem an emptyDir lives on (100 GiB). */
    static final long NODE_FS_BYTES = 100L * 1024 * 1024 * 1024;

    /** One mounted volume; {@code claim} is empty for an emptyDir. */
    public record Mounted(String node, String hostIP, ObjectNode pod, String volume, String claim, long capacityBytes) {
        public String namespace() {
            return pod.path("metadata").path("namespace").asText();
        }
    }

    /**
     * Pods by node and claims by "NS/NAME", read once per resourceVersion: 200 nodes asking at once list the store once.
     * They are the store's own objects, never to be changed: every read here only reads them.
     */
    private record Index(long resourceVersion, Map<String, List<ObjectNode>> podsByNode, Map<String, ObjectNode> claims) {}

    private final Store store;
    private final ResourceType pods;
    private final ResourceType claims;
    private Index index;

    public MountedVolumes(Store store, Catalog catalog) {
        this.store = store;
        this.pods = catalog.byResource("", "pods").orElseThrow();
        this.claims = catalog.byResource("", "persistentvolumeclaims").orElseThrow();
    }

    private synchronized Index index() {
        long rv = store.resourceVersion();
        if (index == null || index.resourceVersion() != rv) {
            Map<String, List<ObjectNode>> byNode = new LinkedHashMap<>();
            // the stored objects themselves (read-only here): deep copies of 6,000 pods and claims bought nothing
            for (ObjectNode pod : store.snapshot(pods, "").items()) {
                String node = pod.path("spec").path("nodeName").asText("");
                if (!node.isEmpty()) {
                    byNode.computeIfAbsent(node, n -> new ArrayList<>()).add(pod);
                }
            }
            Map<String, ObjectNode> byName = new HashMap<>();
            for (ObjectNode claim : store.snapshot(claims, "").items()) {
                byName.put(claim.path("metadata").path("namespace").asText() + "/" + claim.path("metadata").path("name").asText(), claim);
            }
            index = new Index(rv, byNode, byName);
        }
        return index;
    }

    /** Every node some pod is bound to (spec.nodeName): the nodes this cluster has. */
    public Set<String> nodes() {
        return new LinkedHashSet<>(index().podsByNode().keySet());
    }

    /** The node's address as its pods' status.hostIP shows it (the node name when no pod says). */
    public String address(String node) {
        for (ObjectNode pod : index().podsByNode().getOrDefault(node, List.of())) {
            if (!pod.path("status").path("hostIP").asText("").isEmpty()) {
                return pod.path("status").path("hostIP").asText();
            }
        }
        return node;
    }

    /** The Running pods bound to {@code node} (every node when null), in store order per node. */
    public List<ObjectNode> runningPods(String node) {
        List<ObjectNode> out = new ArrayList<>();
        Map<String, List<ObjectNode>> byNode = index().podsByNode();
        for (List<ObjectNode> onNode : node == null ? byNode.values() : List.of(byNode.getOrDefault(node, List.of()))) {
            for (ObjectNode pod : onNode) {
                if ("Running".equals(pod.path("status").path("phase").asText()) && !pod.path("metadata").has("deletionTimestamp")) {
                    out.add(pod);
                }
            }
        }
        return out;
    }

    /** The volumes of one Running pod the kubelet measures, in the pod's order. */
    public List<Mounted> of(ObjectNode pod) {
        List<Mounted> out = new ArrayList<>();
        String node = pod.path("spec").path("nodeName").asText();
        String hostIP = pod.path("status").path("hostIP").asText(node);
        String ns = pod.path("metadata").path("namespace").asText();
        for (JsonNode v : pod.path("spec").path("volumes")) {
            String name = v.path("name").asText();
            if (v.has("persistentVolumeClaim")) {
                String claimName = v.path("persistentVolumeClaim").path("claimName").asText();
                ObjectNode claim = index().claims().get(ns + "/" + claimName);
                Long capacity = claim == null ? null : boundCapacity(claim);
                if (capacity != null) {
                    out.add(new Mounted(node, hostIP, pod, name, claimName, capacity));
                }
            } else if (v.has("emptyDir")) {
                out.add(new Mounted(node, hostIP, pod, name, "", NODE_FS_BYTES));
            }
        }
        return out;
    }

    /** Every mounted claim volume of every Running pod (what kubelet_volume_stats_* series exist for). */
    public List<Mounted> claimVolumes() {
        List<Mounted> out = new ArrayList<>();
        for (ObjectNode pod : runningPods(null)) {
            for (Mounted m : of(pod)) {
                if (!m.claim().isEmpty()) {
                    out.add(m);
                }
            }
        }
        return out;
    }

    /** status.capacity.storage in bytes of a Bound claim; null when not Bound or without a capacity. */
    static Long boundCapacity(ObjectNode claim) {
        if (!"Bound".equals(claim.path("status").path("phase").asText())) {
            return null;
        }
        String q = claim.path("status").path("capacity").path("storage").asText("");
        if (q.isEmpty() || !Quantities.isValid(q)) {
            return null;
        }
        return Quantities.value(q).longValue();
    }
}
