package dev.stsresize.sim.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The {@code $setElementOrder/<field>} directive, as strategicpatch mergePatchIntoOriginal applies
 * it (design: preserve-order-in-strategic-merge-patch): the items the directive names take its
 * order, the live-only items keep theirs, and the two are interleaved by the live list's order.
 * Client-side {@code kubectl apply} sends it with every merged list it changes.
 */
final class ElementOrder {
    private final String mergeKey;

    /** {@code mergeKey} null for a list of scalars. */
    ElementOrder(String mergeKey) {
        this.mergeKey = mergeKey;
    }

    void apply(ObjectNode out, String field, JsonNode order, JsonNode patchList, JsonNode before) {
        if (!order.isArray()) {
            throw PatchErrors.internal("expected a " + GoFormat.SLICE + ", but received a " + GoFormat.typeName(order));
        }
        validate(patchList, order);
        JsonNode merged = out.get(field);
        if (merged == null || !merged.isArray()) {
            return;
        }
        List<JsonNode> named = new ArrayList<>();
        List<JsonNode> serverOnly = new ArrayList<>();
        merged.forEach(item -> (indexIn(order, item) >= 0 ? named : serverOnly).add(item));
        named.sort(Comparator.comparingInt(item -> indexIn(order, item)));
        // serverOnly is already in live order: merging keeps live items where they were
        out.set(field, interleave(serverOnly, named, before));
    }

    /** mergeSortedSlice: a live-only item goes before a named one only when the live list had it first. */
    private ArrayNode interleave(List<JsonNode> serverOnly, List<JsonNode> named, JsonNode before) {
        ArrayNode out = PatchTrees.NODES.arrayNode();
        int i = 0;
        int j = 0;
        while (i < serverOnly.size() || j < named.size()) {
            if (j >= named.size()) {
                out.add(serverOnly.get(i++));
            } else if (i >= serverOnly.size()) {
                out.add(named.get(j++));
            } else {
                int li = indexIn(before, serverOnly.get(i));
                int ri = indexIn(before, named.get(j));
                out.add(li >= 0 && ri >= 0 && li < ri ? serverOnly.get(i++) : named.get(j++));
            }
        }
        return out;
    }

    /**
     * validatePatchWithSetOrderList: the patch's items must come in the directive's order; a
     * plain Go error, so the server answers 500.
     */
    private void validate(JsonNode patchList, JsonNode order) {
        if (patchList == null || !patchList.isArray() || patchList.isEmpty() || order.isEmpty()) {
            return;
        }
        int p = 0;
        int o = 0;
        List<JsonNode> items = new ArrayList<>();
        patchList.forEach(item -> {
            if (!(mergeKey != null && item.isObject() && item.has("$patch"))) {
                items.add(item);
            }
        });
        while (p < items.size() && o < order.size()) {
            if (PatchTrees.same(id(items.get(p)), id(order.get(o)))) {
                p++;
            }
            o++;
        }
        if (p < items.size()) {
            throw PatchErrors.internal("The order in patch list:\n" + GoFormat.value(patchList) + "\n doesn't match $setElementOrder list:\n"
                    + GoFormat.value(order) + "\n");
        }
    }

    private int indexIn(JsonNode list, JsonNode item) {
        if (list == null || !list.isArray()) {
            return -1;
        }
        for (int i = 0; i < list.size(); i++) {
            if (PatchTrees.same(id(list.get(i)), id(item))) {
                return i;
            }
        }
        return -1;
    }

    /** What identifies an item: its merge key's value, or the scalar itself. */
    private JsonNode id(JsonNode item) {
        return mergeKey != null && item.isObject() ? item.get(mergeKey) : item;
    }
}
