package dev.stsresize.usage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.plan.Metadata;
import java.util.HashMap;
import java.util.Map;

/**
 * The file system capacity a kubelet's summary ({@code GET /api/v1/nodes/NODE/proxy/stats/summary}, as
 * {@link UsageReader} reads it) reports for each mounted claim: {@code pods[].volume[]} with a {@code pvcRef}.
 * Untrusted: a capacity that is not a positive integer is left out.
 */
public final class SummaryVolumes {
    private SummaryVolumes() {}

    /** {@code namespace/claim} → capacityBytes, for every claim volume the summary reports a usable capacity of. */
    public static Map<String, Long> capacities(ObjectNode summary) {
        Map<String, Long> out = new HashMap<>();
        if (summary == null) {
            return out;
        }
        for (JsonNode pod : summary.path("pods")) {
            for (JsonNode v : pod.path("volume")) {
                String ns = v.path("pvcRef").path("namespace").asText("");
                String claim = v.path("pvcRef").path("name").asText("");
                JsonNode capacity = v.path("capacityBytes");
                if (!ns.isEmpty() && !claim.isEmpty() && capacity.isIntegralNumber() && capacity.canConvertToLong()
                        && capacity.asLong() > 0) {
                    out.put(Metadata.key(ns, claim), capacity.asLong());
                }
            }
        }
        return out;
    }
}
