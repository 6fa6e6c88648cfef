package dev.stsresize.sim.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/** RFC 7386 JSON merge patch, as gopkg.in/evanphx/json-patch.v4 MergePatch applies it. */
final class MergePatch {
    private MergePatch() {}

    static ObjectNode apply(ObjectNode target, JsonNode patch) {
        if (patch == null || !patch.isObject()) {
            // jsonpatch.ErrBadJSONPatch, answered 400 by endpoints/handlers/patch.go
            throw PatchErrors.badRequest("Invalid JSON Patch");
        }
        ObjectNode doc = target.deepCopy();
        merge(doc, (ObjectNode) patch);
        return doc;
    }

    private static void merge(ObjectNode doc, ObjectNode patch) {
        for (Map.Entry<String, JsonNode> e : patch.properties()) {
            String key = e.getKey();
            JsonNode value = e.getValue();
            JsonNode existing = doc.get(key);
            if (value.isNull()) {
                doc.remove(key);
            } else if (value.isObject() && existing != null && existing.isObject()) {
                merge((ObjectNode) existing, (ObjectNode) value);
            } else {
                doc.set(key, withoutNulls(value));
            }
        }
    }

    /** A value that lands where nothing was to merge with keeps no null members (json-patch pruneNulls). */
    static JsonNode withoutNulls(JsonNode value) {
        if (value.isObject()) {
            ObjectNode out = PatchTrees.NODES.objectNode();
            for (Map.Entry<String, JsonNode> e : value.properties()) {
                if (!e.getValue().isNull()) {
                    out.set(e.getKey(), withoutNulls(e.getValue()));
                }
            }
            return out;
        }
        if (value.isArray()) {
            ArrayNode out = PatchTrees.NODES.arrayNode();
            value.forEach(item -> out.add(withoutNulls(item)));
            return out;
        }
        return value.deepCopy();
    }
}
