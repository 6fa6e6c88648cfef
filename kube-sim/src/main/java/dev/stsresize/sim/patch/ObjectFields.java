package dev.stsresize.sim.patch;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The field sets of an object under its kind's list semantics: the fields a config names
 * (typed/tofieldset.go) and what changed between two objects (typed/compare.go).
 */
final class ObjectFields {
    /**
     * Fields that Go structs always carry (non-pointer structs, lists without omitempty): the real
     * server never sees them appear, so they never gain a "." of their own when first set.
     */
    private static final Set<String> ALWAYS_PRESENT = Set.of("metadata", "spec", "status", "template", "containers", "resources", "updateStrategy");

    /** Added, modified and removed paths between two versions of an object. */
    record Comparison(FieldSet added, FieldSet modified, FieldSet removed) {
        FieldSet changed() {
            return added.union(modified);
        }
    }

    private final String kind;

    ObjectFields(String kind) {
        this.kind = kind;
    }

    /** Every field the object names: scalars, atomic lists and structs, list items, empty maps and nulls. */
    FieldSet toFieldSet(JsonNode object) {
        FieldSet set = new FieldSet();
        collect(object, new ArrayList<>(), "", set);
        return set;
    }

    private void collect(JsonNode node, List<PathElement> path, String schemaPath, FieldSet set) {
        if (node.isObject() && !MergeKeys.atomicStruct(kind, schemaPath)) {
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                path.add(new PathElement.Field(e.getKey()));
                collect(e.getValue(), path, join(schemaPath, e.getKey()), set);
                if (e.getValue().isNull() || (e.getValue().isObject() && e.getValue().isEmpty())) {
                    set.insert(List.copyOf(path));
                }
                path.remove(path.size() - 1);
            }
        } else if (node.isArray() && MergeKeys.list(kind, schemaPath).ssaType() != MergeKeys.ListType.ATOMIC) {
            MergeKeys.ListSchema schema = MergeKeys.list(kind, schemaPath);
            for (Map.Entry<PathElement, JsonNode> item : ListItems.index(schema, node).entrySet()) {
                path.add(item.getKey());
                collect(item.getValue(), path, schemaPath, set);
                set.insert(List.copyOf(path));
                path.remove(path.size() - 1);
            }
        } else {
            set.insert(List.copyOf(path));
        }
    }

    Comparison compare(JsonNode before, JsonNode after) {
        Comparison c = new Comparison(new FieldSet(), new FieldSet(), new FieldSet());
        compare(before, after, new ArrayList<>(), "", c);
        return c;
    }

    private void compare(JsonNode lhs, JsonNode rhs, List<PathElement> path, String schemaPath, Comparison c) {
        JsonNode shape = lhs != null ? lhs : rhs;
        boolean sameShape = lhs == null || rhs == null || lhs.getNodeType() == rhs.getNodeType();
        boolean descended;
        if (sameShape && shape.isObject() && !MergeKeys.atomicStruct(kind, schemaPath) && !bothEmpty(lhs, rhs)) {
            compareMaps(lhs, rhs, path, schemaPath, c);
            descended = true;
        } else if (sameShape && shape.isArray() && MergeKeys.list(kind, schemaPath).ssaType() != MergeKeys.ListType.ATOMIC
                && !bothEmpty(lhs, rhs)) {
            compareLists(lhs, rhs, path, schemaPath, c);
            descended = true;
        } else {
            leaf(lhs, rhs, path, c);
            descended = false;
        }
        if (descended && !path.isEmpty() && !alwaysPresent(path)) {
            if (lhs == null) {
                c.added().insert(List.copyOf(path));
            } else if (rhs == null) {
                c.removed().insert(List.copyOf(path));
            }
        }
    }

    private static boolean alwaysPresent(List<PathElement> path) {
        return path.get(path.size() - 1) instanceof PathElement.Field f && ALWAYS_PRESENT.contains(f.name());
    }

    private static boolean bothEmpty(JsonNode lhs, JsonNode rhs) {
        return (lhs == null || lhs.isEmpty()) && (rhs == null || rhs.isEmpty());
    }

    private static void leaf(JsonNode lhs, JsonNode rhs, List<PathElement> path, Comparison c) {
        if (lhs == null) {
            c.added().insert(List.copyOf(path));
        } else if (rhs == null) {
            c.removed().insert(List.copyOf(path));
        } else if (!PatchTrees.same(lhs, rhs)) {
            c.modified().insert(List.copyOf(path));
        }
    }

    private void compareMaps(JsonNode lhs, JsonNode rhs, List<PathElement> path, String schemaPath, Comparison c) {
        Map<String, Boolean> keys = new java.util.LinkedHashMap<>();
        for (JsonNode side : new JsonNode[] {lhs, rhs}) {
            if (side != null) {
                side.fieldNames().forEachRemaining(k -> keys.put(k, Boolean.TRUE));
            }
        }
        for (String k : keys.keySet()) {
            path.add(new PathElement.Field(k));
            compare(lhs == null ? null : lhs.get(k), rhs == null ? null : rhs.get(k), path, join(schemaPath, k), c);
            path.remove(path.size() - 1);
        }
    }

    private void compareLists(JsonNode lhs, JsonNode rhs, List<PathElement> path, String schemaPath, Comparison c) {
        MergeKeys.ListSchema schema = MergeKeys.list(kind, schemaPath);
        Map<PathElement, JsonNode> left = ListItems.index(schema, lhs);
        Map<PathElement, JsonNode> right = ListItems.index(schema, rhs);
        TreeMap<PathElement, Boolean> all = new TreeMap<>();
        left.keySet().forEach(pe -> all.put(pe, Boolean.TRUE));
        right.keySet().forEach(pe -> all.put(pe, Boolean.TRUE));
        for (PathElement pe : all.keySet()) {
            path.add(pe);
            compare(find(left, pe), find(right, pe), path, schemaPath, c);
            path.remove(path.size() - 1);
        }
    }

    /** Looks an item up by element order (the map's own equality would tell 80 from 80L). */
    static JsonNode find(Map<PathElement, JsonNode> items, PathElement pe) {
        for (Map.Entry<PathElement, JsonNode> e : items.entrySet()) {
            if (e.getKey().compareTo(pe) == 0) {
                return e.getValue();
            }
        }
        return null;
    }

    static String join(String path, String key) {
        return path.isEmpty() ? key : path + "." + key;
    }
}
