package dev.stsresize.render;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.converge.StatefulSetResult;
import java.util.List;

/**
 * The {@code stsresize/v1} Result document of {@code apply -o json}: one item per StatefulSet with its
 * outcome, reason, detail, claims (from, to, capacity as last read, where the file system stands and the
 * capacity the kubelet reported for it), pods (UID before and after, and whether this run restarted it),
 * and {@code phaseSeconds}: how long each phase of a run took (absent when none ran).
 */
public final class ResultDocument {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    /** "data-db-10" after "data-db-9": the name before the last dash, then the ordinal as a number. */
    public static final java.util.Comparator<String> ORDINAL_NAMES = java.util.Comparator
            .comparing((String n) -> n.substring(0, Math.max(0, n.lastIndexOf('-'))))
            .thenComparingLong(n -> {
                String tail = n.substring(n.lastIndexOf('-') + 1);
                return tail.matches("\\d{1,18}") ? Long.parseLong(tail) : Long.MAX_VALUE;
            })
            .thenComparing(java.util.Comparator.naturalOrder());

    private static final java.util.Comparator<StatefulSetResult.ClaimResult> BY_ORDINAL =
            java.util.Comparator.comparing(StatefulSetResult.ClaimResult::name, ORDINAL_NAMES);

    private ResultDocument() {}

    public static ObjectNode of(List<StatefulSetResult> results) {
        ObjectNode doc = PlanDocument.document("Result");
        ArrayNode items = (ArrayNode) doc.get("items");
        for (StatefulSetResult r : results) {
            ObjectNode item = PlanDocument.item(items, r.namespace(), r.name());
            item.put("outcome", r.outcome().label());
            if (r.reason() != null && !r.reason().isEmpty()) {
                item.put("reason", r.reason()); // the contract: only for refused, blocked, failed and stopped
            }
            item.put("detail", r.detail());
            ArrayNode claims = item.putArray("claims");
            for (StatefulSetResult.ClaimResult c : r.claims().stream().sorted(BY_ORDINAL).toList()) {
                ObjectNode claim = claims.addObject().put("name", c.name()).put("from", c.from()).put("to", c.to()).put("capacity", c.capacity());
                if (c.fileSystem() != null) {
                    claim.put("fileSystem", c.fileSystem().label());
                }
                if (c.fileSystemBytes() >= 0) {
                    claim.put("fileSystemBytes", c.fileSystemBytes());
                }
                if (c.fileSystemShared()) {
                    claim.put("fileSystemShared", true); // its space is the node's disk, not the claim's size
                }
                if (c.copied() != null) {
                    // moved by the copy migration: the volume it left is kept (Released, Retain) for the operator to free
                    claim.put("action", "copy").put("previousVolume", c.copied().previousVolume()).put("volume", c.copied().volume());
                    if (c.copied().files() >= 0) {
                        claim.put("filesCopied", c.copied().files()).put("bytesCopied", c.copied().bytes());
                    }
                    if (!c.copied().fileSystem().isEmpty()) {
                        claim.put("fileSystem", c.copied().fileSystem());
                    }
                }
            }
            ArrayNode pods = item.putArray("pods");
            for (StatefulSetResult.PodResult p : r.pods().stream()
                    .sorted(java.util.Comparator.comparing(StatefulSetResult.PodResult::name, ORDINAL_NAMES)).toList()) {
                pods.addObject().put("name", p.name()).put("uidBefore", p.uidBefore()).put("uidAfter", p.uidAfter())
                        .put("restarted", p.restarted());
            }
            ArrayNode warnings = item.putArray("warnings");
            r.warnings().forEach(warnings::add);
            if (!r.phases().isEmpty()) {
                // how long each phase took, in seconds (milliseconds kept), in the order the phases ran
                ObjectNode phases = item.putObject("phaseSeconds");
                r.phases().forEach(p -> phases.put(p.phase(), java.math.BigDecimal.valueOf(p.took().toMillis(), 3)));
            }
        }
        return doc;
    }
}
