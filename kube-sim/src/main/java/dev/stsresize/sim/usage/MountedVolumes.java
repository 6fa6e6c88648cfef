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
 *
 * <p>What the kubelet measures of a claim's volume depends on the volume plugin of its PersistentVolume, as
 * pkg/kubelet/server/stats/volume_stat_calculator.go calcAndStoreStats asks each one for its metrics
 * ({@link Stats}): most measure the volume's own file system; a hostPath PV measures nothing (pkg/volume/hostpath:
 * {@code hostPath} embeds {@code volume.MetricsNil}, whose GetMetrics is "not supported", and calcAndStoreStats
 * skips it); a volume that is a directory of the node's disk reports that disk (csi-driver-host-path's
 * NodeGetVolumeStats statfs's the volume's directory: pkg/hostpath/nodeserver.go, getPVStats).
 */
public final class MountedVolumes {
    /** The node filesystem an emptyDir, and a hostpath CSI volume, lives on (100 GiB). */
    static final long NODE_FS_BYTES = 100L * 1024 * 1024 * 1024;
    /** The CSI driver whose volumes are directories of the node's disk (kubernetes-csi/csi-driver-host-path). */
    static final String HOSTPATH_CSI_DRIVER = "hostpath.csi.k8s.io";

    /** What the kubelet measures of a mounted volume. */
    public enum Stats {
        /** Its own file system. */
        OWN,
        /** The node's disk it is a directory of: capacity and usage are the disk's. */
        NODE_DISK,
        /** Nothing: its volume plugin keeps no metrics, and the summary leaves it out. */
        NONE
    }

    /** One mounted volume; {@code claim} is empty for an emptyDir. */
    public record Mounted(String node, String hostIP, ObjectNode pod, String volume, String claim, long capacityBytes, Stats stats) {
        public String namespace() {
            return pod.path("metadata").path("namespace").asText();
        }

        /** Where its usage lives in the model: the claim's own, the node disk's, or the pod's emptyDir. */
        public String usageNamespace() {
            return stats == Stats.NODE_DISK ? "" : namespace();
        }

        public String usageKey() {
            if (stats == Stats.NODE_DISK) {
                return "node-disk/" + node;
            }
            return claim.isEmpty() ? "pod/" + pod.path("metadata").path("name").asText() + "/" + volume : claim;
        }

        /** The file system's capacity as the kubelet reports it: the node disk's for a directory of it. */
        public long measuredCapacityBytes() {
            return stats == Stats.NODE_DISK ? NODE_FS_BYTES : capacityBytes;
        }
    }

    /**
     * Pods by node and claims by "NS/NAME", read once per resourceVersion: 200 nodes asking at once list the store once.
     * They are the store's own objects, never to be changed: every read here only reads them.
     */
    private record Index(long resourceVersion, Map<String, List<ObjectNode>> podsByNode, Map<String, ObjectNode> claims,
            Map<String, ObjectNode> volumes) {}

    private final Store store;
    private final ResourceType pods;
    private final ResourceType claims;
    private final ResourceType volumes;
    private Index index;

    public MountedVolumes(Store store, Catalog catalog) {
        this.store = store;
        this.pods = catalog.byResource("", "pods").orElseThrow();
        this.claims = catalog.byResource("", "persistentvolumeclaims").orElseThrow();
        this.volumes = catalog.byResource("", "persistentvolumes").orElseThrow();
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
            Map<String, ObjectNode> pvs = new HashMap<>();
            for (ObjectNode pv : store.snapshot(volumes, "").items()) {
                pvs.put(pv.path("metadata").path("name").asText(), pv);
            }
            index = new Index(rv, byNode, byName, pvs);
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
                    out.add(new Mounted(node, hostIP, pod, name, claimName, capacity,
                            stats(index().volumes().get(claim.path("spec").path("volumeName").asText("")))));
                }
            } else if (v.has("emptyDir")) {
                out.add(new Mounted(node, hostIP, pod, name, "", NODE_FS_BYTES, Stats.OWN));
            }
        }
        return out;
    }

    /**
     * Every mounted claim volume of every Running pod that the kubelet measures (what kubelet_volume_stats_* series
     * exist for: pkg/kubelet/metrics/collectors/volume_stats.go reads the same stats as the summary).
     */
    public List<Mounted> claimVolumes() {
        List<Mounted> out = new ArrayList<>();
        for (ObjectNode pod : runningPods(null)) {
            for (Mounted m : of(pod)) {
                if (!m.claim().isEmpty() && m.stats() != Stats.NONE) {
                    out.add(m);
                }
            }
        }
        return out;
    }

    /** What the kubelet measures of a claim bound to {@code pv} (a claim whose PV is not stored: its own file system). */
    static Stats stats(ObjectNode pv) {
        if (pv == null) {
            return Stats.OWN;
        }
        JsonNode spec = pv.path("spec");
        if (spec.has("hostPath")) {
            return Stats.NONE;
        }
        if (HOSTPATH_CSI_DRIVER.equals(spec.path("csi").path("driver").asText())) {
            return Stats.NODE_DISK;
        }
        return Stats.OWN;
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
