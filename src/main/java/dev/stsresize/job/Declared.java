package dev.stsresize.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Set;

/**
 * What the script is told about one declared StatefulSet (the seed's Declared/DeclaredOf): its name,
 * every spec field an update may not change (serviceName, podManagementPolicy, selector,
 * revisionHistoryLimit, and any newer one) as the manifest writes them, and its volumeClaimTemplates
 * without what a typed object would add. No pod template: a pod template change alone must not
 * change the Job. Carrying every immutable field, not a fixed list, keeps the script's
 * other-immutable check the same as {@code plan.Decider}'s.
 */
public final class Declared {
    /** The spec fields an update may change (v1.32), as {@code plan.Decider.MUTABLE_SPEC_FIELDS}; templates are carried apart. */
    static final Set<String> MUTABLE = Set.of("replicas", "ordinals", "template", "updateStrategy",
            "persistentVolumeClaimRetentionPolicy", "minReadySeconds", "volumeClaimTemplates");

    private Declared() {}

    public static ObjectNode of(ObjectNode statefulSet) {
        ObjectNode out = Canonical.MAPPER.createObjectNode();
        out.put("name", statefulSet.path("metadata").path("name").asText());
        statefulSet.path("spec").fields().forEachRemaining(e -> {
            if (!MUTABLE.contains(e.getKey())) {
                out.set(e.getKey(), e.getValue().deepCopy());
            }
        });
        ArrayNode templates = out.putArray("volumeClaimTemplates");
        for (JsonNode t : statefulSet.path("spec").path("volumeClaimTemplates")) {
            ObjectNode copy = t.deepCopy();
            copy.remove(List.of("apiVersion", "kind", "status"));
            if (copy.path("metadata") instanceof ObjectNode m) {
                m.remove("creationTimestamp");
            }
            templates.add(copy);
        }
        return (ObjectNode) Canonical.sorted(out);
    }

    /** RESIZE_DECLARED: a JSON array, in the order given, keys sorted so that key order in a manifest changes nothing. */
    public static String json(List<ObjectNode> statefulSets) {
        ArrayNode a = Canonical.MAPPER.createArrayNode();
        statefulSets.forEach(s -> a.add(of(s)));
        return Canonical.json(a);
    }
}
