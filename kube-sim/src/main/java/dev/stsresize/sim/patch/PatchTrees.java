package dev.stsresize.sim.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.Comparator;

/** Small helpers over Jackson trees shared by the patch algorithms. */
final class PatchTrees {
    static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** Numbers compare by value: Go decodes 80 and 80.0 alike, Jackson keeps IntNode and LongNode apart. */
    private static final Comparator<JsonNode> BY_VALUE = (a, b) -> {
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue());
        }
        return a.equals(b) ? 0 : 1;
    };

    private PatchTrees() {}

    /** Deep equality with numbers by value; two absent (null) nodes are equal. */
    static boolean same(JsonNode a, JsonNode b) {
        if (a == null || b == null) {
            return a == b;
        }
        return a.equals(BY_VALUE, b);
    }
}
