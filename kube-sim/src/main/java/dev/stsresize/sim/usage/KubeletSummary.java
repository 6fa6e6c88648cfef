package dev.stsresize.sim.usage;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The body of a kubelet's {@code GET /stats/summary} (k8s.io/kubelet/pkg/apis/stats/v1alpha1 Summary) for
 * one node, as far as volumes go: {@code node.nodeName}, and per Running pod its {@code podRef},
 * {@code startTime} and {@code volume[]}. Each volume is a VolumeStats: FsStats inline ({@code time},
 * {@code availableBytes}, {@code capacityBytes}, {@code usedBytes}), then {@code name} (the pod's volume
 * name) and {@code pvcRef} — set, as pkg/kubelet/server/stats/volume_stat_calculator.go
 * calcAndStoreStats sets it, for a volume whose source is a persistentVolumeClaim, and absent for an
 * emptyDir. Field order is the Go structs'. CPU, memory, network, containers and inodes are left out.
 * The figures are statfs's as the kubelet turns them into bytes ({@link Measurement}); a volume whose plugin
 * keeps no metrics is not listed, and one that is a directory of the node's disk reports the disk
 * ({@link MountedVolumes.Stats}).
 */
public final class KubeletSummary {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final MountedVolumes mounted;
    private final VolumeUsage usage;

    public KubeletSummary(MountedVolumes mounted, VolumeUsage usage) {
        this.mounted = mounted;
        this.usage = usage;
    }

    public ObjectNode of(String node) {
        Instant now = usage.now();
        String time = now.truncatedTo(ChronoUnit.SECONDS).toString();
        ObjectNode body = JSON.objectNode();
        body.putObject("node").put("nodeName", node);
        ArrayNode pods = body.putArray("pods");
        for (ObjectNode pod : mounted.runningPods(node)) {
            ObjectNode p = pods.addObject();
            ObjectNode meta = (ObjectNode) pod.get("metadata");
            p.putObject("podRef").put("name", meta.path("name").asText()).put("namespace", meta.path("namespace").asText())
                    .put("uid", meta.path("uid").asText());
            if (pod.path("status").has("startTime")) {
                p.put("startTime", pod.path("status").path("startTime").asText());
            }
            ArrayNode volumes = p.putArray("volume");
            for (MountedVolumes.Mounted m : mounted.of(pod)) {
                if (m.stats() == MountedVolumes.Stats.NONE) {
                    continue; // calcAndStoreStats skips a volume whose plugin keeps no metrics
                }
                Measurement u = usage.measureAt(m.usageNamespace(), m.usageKey(), m.measuredCapacityBytes(), now);
                ObjectNode v = volumes.addObject();
                v.put("time", time);
                v.put("availableBytes", u.availableBytes());
                v.put("capacityBytes", u.capacityBytes());
                v.put("usedBytes", u.usedBytes());
                v.put("name", m.volume());
                if (!m.claim().isEmpty()) {
                    v.putObject("pvcRef").put("name", m.claim()).put("namespace", m.namespace());
                }
            }
        }
        return body;
    }
}
