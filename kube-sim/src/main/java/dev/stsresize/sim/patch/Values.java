package dev.stsresize.sim.patch;

import com.fasterxml.jackson.databind.JsonNode;

/** Order and text of scalar values as sigs.k8s.io/structured-merge-diff/value Compare and ToString give them. */
final class Values {
    private Values() {}

    /** value.Compare's order across types: numbers, strings, booleans, lists, maps, then null. */
    static int compare(JsonNode a, JsonNode b) {
        int byType = Integer.compare(typeRank(a), typeRank(b));
        if (byType != 0) {
            return byType;
        }
        if (a.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue());
        }
        if (a.isTextual()) {
            return a.asText().compareTo(b.asText());
        }
        if (a.isBoolean()) {
            return Boolean.compare(a.asBoolean(), b.asBoolean());
        }
        return a.toString().compareTo(b.toString());
    }

    private static int typeRank(JsonNode n) {
        if (n.isNumber()) {
            return 0;
        }
        if (n.isTextual()) {
            return 1;
        }
        if (n.isBoolean()) {
            return 2;
        }
        if (n.isArray()) {
            return 3;
        }
        return n.isObject() ? 4 : 5;
    }

    /** value.ToString: strings quoted (Go %q, here JSON quoting), everything else as JSON. */
    static String toText(JsonNode n) {
        return n.toString();
    }
}
