package dev.stsresize.sim.patch;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stsresize.sim.ApiError;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/** Names list items by their {@link PathElement}: the key of an associative-list item, the value of a set item. */
final class ListItems {
    private ListItems() {}

    static PathElement element(MergeKeys.ListSchema schema, JsonNode item, int index) {
        switch (schema.ssaType()) {
            case SET -> {
                return new PathElement.Value(item);
            }
            case MAP -> {
                TreeMap<String, JsonNode> key = new TreeMap<>();
                for (String field : schema.ssaKeys()) {
                    JsonNode v = item.get(field);
                    if (v == null || v.isNull()) {
                        String def = schema.keyDefaults().get(field);
                        if (def == null) {
                            // typed/helpers.go keyedAssociativeListItemToPathElement
                            throw ApiError.of(500, "InternalError", "element " + index + ": associative list with keys has an element that omits key field \""
                                    + field + "\" (and doesn't have default value)", null);
                        }
                        v = PatchTrees.NODES.textNode(def);
                    }
                    key.put(field, v);
                }
                return new PathElement.Key(key);
            }
            default -> throw new IllegalArgumentException("an atomic list has no items of its own");
        }
    }

    /** The items of a list by element, first occurrence winning (duplicates are ignored, as SMD's merge does). */
    static Map<PathElement, JsonNode> index(MergeKeys.ListSchema schema, JsonNode list) {
        Map<PathElement, JsonNode> out = new LinkedHashMap<>();
        TreeMap<PathElement, Boolean> seen = new TreeMap<>();
        if (list == null || !list.isArray()) {
            return out;
        }
        for (int i = 0; i < list.size(); i++) {
            PathElement pe = element(schema, list.get(i), i);
            if (seen.put(pe, Boolean.TRUE) == null) {
                out.put(pe, list.get(i));
            }
        }
        return out;
    }
}
