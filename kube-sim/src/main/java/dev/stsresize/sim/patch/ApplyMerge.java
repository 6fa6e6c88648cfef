package dev.stsresize.sim.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Merges an applied config into the live object as structured-merge-diff's typed.Merge does:
 * maps merge field by field, atomic lists and structs are replaced, associative lists and sets
 * merge item by item (config order, live-only items kept where they were), and a null in the
 * config removes the field.
 */
final class ApplyMerge {
    private final String kind;

    ApplyMerge(String kind) {
        this.kind = kind;
    }

    ObjectNode merge(ObjectNode live, ObjectNode config) {
        return (ObjectNode) merge(live, config, "");
    }

    private JsonNode merge(JsonNode lhs, JsonNode rhs, String schemaPath) {
        if (lhs == null) {
            return MergePatch.withoutNulls(rhs);
        }
        if (lhs.isObject() && rhs.isObject() && !MergeKeys.atomicStruct(kind, schemaPath)) {
            ObjectNode out = ((ObjectNode) lhs).deepCopy();
            for (Map.Entry<String, JsonNode> e : rhs.properties()) {
                if (e.getValue().isNull()) {
                    out.remove(e.getKey());
                } else {
                    out.set(e.getKey(), merge(lhs.get(e.getKey()), e.getValue(), ObjectFields.join(schemaPath, e.getKey())));
                }
            }
            return out;
        }
        MergeKeys.ListSchema schema = MergeKeys.list(kind, schemaPath);
        if (lhs.isArray() && rhs.isArray() && schema.ssaType() != MergeKeys.ListType.ATOMIC) {
            return mergeLists(lhs, rhs, schema, schemaPath);
        }
        return MergePatch.withoutNulls(rhs);
    }

    /**
     * Item order of typed/merge.go visitListItems: walk both lists; a shared item is emitted when
     * both walks reach it; a live-only item stays at its place; config items come in config order.
     * (A live item the config has is always reached by the config walk first or together, so the
     * walk ends; ApplyMergeTest checks that over every pair of orders of five items.)
     */
    private JsonNode mergeLists(JsonNode lhs, JsonNode rhs, MergeKeys.ListSchema schema, String schemaPath) {
        Map<PathElement, JsonNode> left = ListItems.index(schema, lhs);
        Map<PathElement, JsonNode> right = ListItems.index(schema, rhs);
        List<PathElement> lOrder = new ArrayList<>(left.keySet());
        List<PathElement> rOrder = new ArrayList<>(right.keySet());
        List<PathElement> shared = new ArrayList<>();
        for (PathElement pe : rOrder) {
            if (ObjectFields.find(left, pe) != null) {
                shared.add(pe);
            }
        }
        ArrayNode out = PatchTrees.NODES.arrayNode();
        int l = 0;
        int r = 0;
        while (l < lOrder.size() || r < rOrder.size()) {
            PathElement nextShared = shared.isEmpty() ? null : shared.get(0);
            if (l < lOrder.size() && r < rOrder.size()) {
                PathElement pe = lOrder.get(l);
                if (pe.compareTo(rOrder.get(r)) == 0) {
                    out.add(merge(left.get(pe), right.get(rOrder.get(r)), schemaPath));
                    shared.removeIf(x -> x.compareTo(pe) == 0);
                    l++;
                    r++;
                    continue;
                }
                if (ObjectFields.find(right, pe) != null && nextShared != null && nextShared.compareTo(pe) != 0) {
                    l++;
                    continue;
                }
            }
            if (l < lOrder.size()) {
                PathElement pe = lOrder.get(l);
                if (ObjectFields.find(right, pe) == null) {
                    out.add(left.get(pe).deepCopy());
                    l++;
                    continue;
                }
            }
            if (r < rOrder.size()) {
                PathElement pe = rOrder.get(r);
                out.add(merge(ObjectFields.find(left, pe), right.get(pe), schemaPath));
                if (nextShared != null && nextShared.compareTo(pe) == 0) {
                    shared.remove(0);
                }
                r++;
            }
        }
        return out;
    }

    /**
     * Removes the fields and list items at {@code paths} (prune, typed/remove.go); a map or list
     * the removal leaves empty goes too, as Go's omitempty drops it on the way back to JSON.
     */
    void remove(ObjectNode object, FieldSet paths) {
        for (List<PathElement> path : paths.paths()) {
            removePath(object, path, 0, "");
        }
    }

    private void removePath(JsonNode node, List<PathElement> path, int at, String schemaPath) {
        PathElement pe = path.get(at);
        boolean last = at == path.size() - 1;
        if (pe instanceof PathElement.Field f && node.isObject()) {
            ObjectNode obj = (ObjectNode) node;
            JsonNode child = obj.get(f.name());
            if (child == null) {
                return;
            }
            if (last) {
                obj.remove(f.name());
                return;
            }
            removePath(child, path, at + 1, ObjectFields.join(schemaPath, f.name()));
            if (child.isContainerNode() && child.isEmpty()) {
                obj.remove(f.name());
            }
        } else if (node.isArray()) {
            ArrayNode list = (ArrayNode) node;
            MergeKeys.ListSchema schema = MergeKeys.list(kind, schemaPath);
            for (int i = 0; i < list.size(); i++) {
                if (ListItems.element(schema, list.get(i), i).compareTo(pe) != 0) {
                    continue;
                }
                if (last) {
                    list.remove(i);
                } else {
                    removePath(list.get(i), path, at + 1, schemaPath);
                }
                return;
            }
        }
    }
}
