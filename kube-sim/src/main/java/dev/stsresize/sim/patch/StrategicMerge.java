package dev.stsresize.sim.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Applies a strategic merge patch the way k8s.io/apimachinery/pkg/util/strategicpatch
 * (StrategicMergeMapPatch, i.e. mergeMap with MergeParallelList and IgnoreUnmatchedNulls) does,
 * with list semantics from {@link MergeKeys}. Error texts are mergepatch/errors.go's; the status
 * codes are those of interpretStrategicMergePatchError in endpoints/handlers/patch.go (bad format
 * 400, anything else a 500 internal error).
 *
 * <p>One deliberate difference: directives and nulls inside values that land where nothing was to
 * merge with are processed too, where Go copies them verbatim and drops them later when decoding
 * into the typed struct; our store keeps raw JSON, so they must not reach it.
 */
final class StrategicMerge {
    private static final String DIRECTIVE = "$patch";
    private static final String RETAIN_KEYS = "$retainKeys";
    private static final String DELETE_FROM_PRIMITIVE_LIST = "$deleteFromPrimitiveList/";
    private static final String SET_ELEMENT_ORDER = "$setElementOrder/";

    private final String kind;

    private StrategicMerge(String kind) {
        this.kind = kind;
    }

    static ObjectNode apply(ObjectNode target, JsonNode patch, String kind) {
        if (patch == null || patch.isNull()) {
            return target.deepCopy();
        }
        if (!patch.isObject()) {
            String type = patch.isArray() ? "array" : patch.isTextual() ? "string" : patch.isNumber() ? "number" : "bool";
            throw PatchErrors.badRequest("json: cannot unmarshal " + type + " into Go value of type map[string]interface {}");
        }
        return new StrategicMerge(kind).mergeMap(target.deepCopy(), (ObjectNode) patch, "");
    }

    private ObjectNode mergeMap(ObjectNode original, ObjectNode patch, String path) {
        JsonNode directive = patch.get(DIRECTIVE);
        if (directive != null) {
            return mapDirective(directive, patch, path);
        }
        ObjectNode out = original == null ? PatchTrees.NODES.objectNode() : original;
        retainKeys(out, patch);
        Map<String, JsonNode> listsBefore = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : patch.properties()) {
            if (e.getKey().startsWith(SET_ELEMENT_ORDER)) {
                String field = e.getKey().substring(SET_ELEMENT_ORDER.length());
                listsBefore.put(field, out.has(field) ? out.get(field).deepCopy() : null);
            }
        }
        for (Map.Entry<String, JsonNode> e : patch.properties()) {
            if (e.getKey().startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
                deleteFromPrimitiveList(out, e.getKey().substring(DELETE_FROM_PRIMITIVE_LIST.length()), e.getValue());
            }
        }
        for (Map.Entry<String, JsonNode> e : patch.properties()) {
            String key = e.getKey();
            if (!key.startsWith("$")) {
                mergeField(out, key, e.getValue(), join(path, key));
            }
        }
        listsBefore.forEach((field, before) -> new ElementOrder(MergeKeys.list(kind, join(path, field)).smpKey())
                .apply(out, field, patch.get(SET_ELEMENT_ORDER + field), patch.get(field), before));
        return out;
    }

    private ObjectNode mapDirective(JsonNode directive, ObjectNode patch, String path) {
        switch (directive.asText()) {
            case "replace" -> {
                ObjectNode rest = patch.deepCopy();
                rest.remove(DIRECTIVE);
                return mergeMap(null, rest, path);
            }
            case "delete" -> {
                return PatchTrees.NODES.objectNode();
            }
            default -> throw badPatchType(directive, patch);
        }
    }

    private void mergeField(ObjectNode out, String key, JsonNode value, String path) {
        JsonNode existing = out.get(key);
        if (value.isNull()) {
            out.remove(key);
        } else if (value.isObject()) {
            out.set(key, mergeMap(existing != null && existing.isObject() ? (ObjectNode) existing : null, (ObjectNode) value, path));
        } else if (value.isArray()) {
            ArrayNode base = existing != null && existing.isArray() ? (ArrayNode) existing : PatchTrees.NODES.arrayNode();
            MergeKeys.ListSchema schema = MergeKeys.list(kind, path);
            out.set(key, schema.smpMerge() ? mergeList(base, (ArrayNode) value, schema, path) : fresh((ArrayNode) value, path));
        } else {
            out.set(key, value.deepCopy());
        }
    }

    /** A list value that replaces the original: only its directives and nulls are processed. */
    private ArrayNode fresh(ArrayNode patch, String path) {
        ArrayNode out = PatchTrees.NODES.arrayNode();
        for (JsonNode item : patch) {
            out.add(item.isObject() ? mergeMap(null, (ObjectNode) item, path) : item.deepCopy());
        }
        return out;
    }

    private ArrayNode mergeList(ArrayNode original, ArrayNode patch, MergeKeys.ListSchema schema, String path) {
        if (original.isEmpty() && patch.isEmpty()) {
            return original;
        }
        if (!elementsOfOneType(original, patch).equals(GoFormat.MAP)) {
            return uniqueScalars(original, patch);
        }
        String key = schema.smpKey();
        if (key == null) {
            throw PatchErrors.internal("cannot merge lists without merge key for type map");
        }
        List<JsonNode> items = new ArrayList<>();
        original.forEach(items::add);
        List<ObjectNode> merges = new ArrayList<>();
        boolean replace = false;
        for (JsonNode p : patch) {
            ObjectNode item = (ObjectNode) p;
            JsonNode directive = item.get(DIRECTIVE);
            if (directive == null) {
                merges.add(item);
                continue;
            }
            switch (directive.asText()) {
                case "delete" -> {
                    JsonNode keyValue = item.get(key);
                    if (keyValue == null) {
                        throw PatchErrors.internal("delete patch type with no merge key defined");
                    }
                    items.removeIf(o -> PatchTrees.same(o.get(key), keyValue));
                }
                case "replace" -> replace = true;
                case "merge" -> throw PatchErrors.internal("merging lists cannot yet be specified in the patch");
                default -> throw badPatchType(directive, item);
            }
        }
        if (replace) {
            items.clear();
        }
        for (ObjectNode item : merges) {
            JsonNode keyValue = item.get(key);
            if (keyValue == null) {
                throw PatchErrors.internal("map: " + GoFormat.value(item) + " does not contain declared merge key: " + key);
            }
            int at = indexOf(items, key, keyValue);
            if (at >= 0) {
                items.set(at, mergeMap((ObjectNode) items.get(at), item, path));
            } else {
                items.add(mergeMap(null, item, path));
            }
        }
        ArrayNode out = PatchTrees.NODES.arrayNode();
        items.forEach(out::add);
        return out;
    }

    private static int indexOf(List<JsonNode> items, String key, JsonNode keyValue) {
        for (int i = 0; i < items.size(); i++) {
            if (PatchTrees.same(items.get(i).get(key), keyValue)) {
                return i;
            }
        }
        return -1;
    }

    /** sliceElementType: the Go type all items share; lists of lists and mixed lists cannot merge. */
    private static String elementsOfOneType(ArrayNode original, ArrayNode patch) {
        String type = null;
        for (ArrayNode list : List.of(original, patch)) {
            for (JsonNode n : list) {
                String t = GoFormat.typeName(n);
                if (t.equals(GoFormat.SLICE)) {
                    throw PatchErrors.jsonPatchFailed(); // ErrNoListOfLists, answered as a generic 422
                }
                if (type != null && !type.equals(t)) {
                    throw PatchErrors.internal("list element types are not identical: ["
                            + GoFormat.value(original) + " " + GoFormat.value(patch) + "]");
                }
                type = t;
            }
        }
        return type;
    }


    /** A merged list of scalars is the union, first occurrence kept (uniqifyScalars). */
    private static ArrayNode uniqueScalars(ArrayNode original, ArrayNode patch) {
        ArrayNode out = PatchTrees.NODES.arrayNode();
        for (ArrayNode list : List.of(original, patch)) {
            for (JsonNode n : list) {
                if (!containsSame(out, n)) {
                    out.add(n.deepCopy());
                }
            }
        }
        return out;
    }

    private static boolean containsSame(ArrayNode list, JsonNode n) {
        for (JsonNode m : list) {
            if (PatchTrees.same(m, n)) {
                return true;
            }
        }
        return false;
    }

    /** $retainKeys: the original keeps only the listed keys; a patch field outside the list is a bad patch. */
    private static void retainKeys(ObjectNode original, ObjectNode patch) {
        JsonNode retain = patch.get(RETAIN_KEYS);
        if (retain == null) {
            return;
        }
        if (!retain.isArray()) {
            throw PatchErrors.badRequest("invalid patch format of retainKeys");
        }
        List<String> keep = new ArrayList<>();
        retain.forEach(k -> keep.add(k.asText()));
        for (Map.Entry<String, JsonNode> e : patch.properties()) {
            if (!e.getKey().startsWith("$") && !e.getValue().isNull() && !keep.contains(e.getKey())) {
                throw PatchErrors.badRequest("invalid patch format of retainKeys");
            }
        }
        original.retain(keep);
    }

    /** deleteFromSlice: what remains comes back sorted and without duplicates, as Go's does. */
    private static void deleteFromPrimitiveList(ObjectNode original, String field, JsonNode toDelete) {
        if (!toDelete.isArray()) {
            throw PatchErrors.badRequest("invalid patch format of primitive list");
        }
        JsonNode current = original.get(field);
        if (current == null || !current.isArray()) {
            return;
        }
        TreeSet<String> gone = new TreeSet<>();
        toDelete.forEach(n -> gone.add(GoFormat.value(n)));
        Map<String, JsonNode> kept = new TreeMap<>();
        current.forEach(n -> {
            String text = GoFormat.value(n);
            if (!gone.contains(text)) {
                kept.putIfAbsent(text, n);
            }
        });
        ArrayNode out = PatchTrees.NODES.arrayNode();
        kept.values().forEach(out::add);
        original.set(field, out);
    }

    private static ApiError badPatchType(JsonNode directive, JsonNode map) {
        return PatchErrors.internal("unknown patch type: " + GoFormat.value(directive) + " in map: " + GoFormat.value(map));
    }

    private static String join(String path, String key) {
        return path.isEmpty() ? key : path + "." + key;
    }
}
