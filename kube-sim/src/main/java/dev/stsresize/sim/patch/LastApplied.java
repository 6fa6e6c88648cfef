package dev.stsresize.sim.patch;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The bridge from client-side to server-side apply that kube-apiserver keeps for the "kubectl"
 * manager only: lastappliedmanager.go lets its apply take over fields whose values the
 * {@value #ANNOTATION} annotation declared and the live object still has, and
 * lastappliedupdater.go rewrites that annotation to the applied config.
 */
final class LastApplied {
    static final String KUBECTL = "kubectl";
    static final String ANNOTATION = "kubectl.kubernetes.io/last-applied-configuration";
    private static final ObjectMapper MAPPER = JsonMapper.builder().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS).build();

    private LastApplied() {}

    /** The conflicts the annotation does not explain: all of them unless the manager is "kubectl". */
    static List<ApplyConflicts.Conflict> unresolved(List<ApplyConflicts.Conflict> conflicts, String manager, ObjectNode live, ObjectFields fields) {
        FieldSet allowed = manager.equals(KUBECTL) ? allowed(live, fields) : null;
        if (allowed == null) {
            return conflicts;
        }
        List<ApplyConflicts.Conflict> left = new ArrayList<>();
        for (ApplyConflicts.Conflict c : conflicts) {
            FieldSet rest = c.fields().difference(allowed);
            if (!rest.isEmpty()) {
                left.add(new ApplyConflicts.Conflict(c.owner(), rest));
            }
        }
        return left;
    }

    /** Fields the annotation names with the value the live object still has; null without a usable annotation. */
    private static FieldSet allowed(ObjectNode live, ObjectFields fields) {
        JsonNode text = live == null ? null : live.path("metadata").path("annotations").get(ANNOTATION);
        if (text == null || !text.isTextual() || text.asText().isEmpty()) {
            return null;
        }
        JsonNode lastApplied;
        try {
            lastApplied = MAPPER.readTree(text.asText());
        } catch (JsonProcessingException e) {
            return null;
        }
        if (!lastApplied.isObject() || !lastApplied.path("apiVersion").asText().equals(live.path("apiVersion").asText())) {
            return null;
        }
        ObjectFields.Comparison c = fields.compare(lastApplied, UpdateRecorder.bare(live));
        return fields.toFieldSet(lastApplied).difference(c.modified()).difference(c.added()).difference(c.removed());
    }

    /** After a "kubectl" apply, an object that carries the annotation gets the applied config in it. */
    static void sync(ObjectNode merged, ObjectNode applied) {
        JsonNode annotations = merged.path("metadata").path("annotations");
        if (!annotations.isObject() || annotations.path(ANNOTATION).asText("").isEmpty()) {
            return;
        }
        ObjectNode config = applied.deepCopy();
        JsonNode own = config.path("metadata").path("annotations");
        if (own.isObject()) {
            ((ObjectNode) own).remove(ANNOTATION);
        }
        try {
            // unstructured JSON encoding: keys sorted, one trailing newline
            String json = MAPPER.writeValueAsString(MAPPER.treeToValue(config, Object.class)) + "\n";
            ((ObjectNode) annotations).put(ANNOTATION, json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode the applied config", e);
        }
    }
}
