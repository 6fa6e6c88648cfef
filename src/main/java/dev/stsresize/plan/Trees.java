package dev.stsresize.plan;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reading and normalising raw JSON trees so that a declared object and the live one the API server
 * returns compare equal when the server would consider them equal. Pure functions over copies.
 */
final class Trees {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Trees() {}

    /** Parses a JSON literal written in this package's own code. */
    static JsonNode parse(String json) {
        try {
            return MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    static JsonNode at(JsonNode node, String... path) {
        JsonNode n = node;
        for (String p : path) {
            n = n.path(p);
        }
        return n;
    }

    static Quantity quantity(JsonNode node, String... path) {
        String t = Metadata.text(node, path);
        return t == null ? null : Quantity.parseOrNull(t);
    }

    static int integer(JsonNode node, int fallback, String... path) {
        JsonNode n = at(node, path);
        return n.isNumber() ? n.asInt() : fallback;
    }

    /**
     * Go's omitempty, as the server applies it when it stores and returns an object: nulls, empty
     * objects and empty arrays are absent. Numbers compare by value ({@code 10} equals {@code 10.0}).
     * Returns null when nothing is left.
     */
    static JsonNode normalize(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        if (node.isObject()) {
            ObjectNode out = JSON.objectNode();
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                JsonNode v = normalize(e.getValue());
                if (v != null) {
                    out.set(e.getKey(), v);
                }
            }
            return out.isEmpty() ? null : out;
        }
        if (node.isArray()) {
            ArrayNode out = JSON.arrayNode();
            for (JsonNode item : node) {
                JsonNode v = normalize(item);
                out.add(v == null ? JSON.nullNode() : v);
            }
            return out.isEmpty() ? null : out;
        }
        if (node.isNumber()) {
            return JSON.numberNode(node.decimalValue().stripTrailingZeros());
        }
        return node;
    }

    /**
     * A volumeClaimTemplate without what the server adds or we compare separately: apiVersion, kind,
     * status, a null creationTimestamp, a defaulted volumeMode Filesystem, and the storage request.
     * Other quantities in resources are written canonically so that {@code 1024Mi} equals {@code 1Gi}.
     */
    static JsonNode comparableTemplate(JsonNode template) {
        ObjectNode t = template.deepCopy();
        t.remove(List.of("apiVersion", "kind", "status"));
        JsonNode spec = t.path("spec");
        if (spec instanceof ObjectNode s) {
            if ("Filesystem".equals(Metadata.text(s, "volumeMode"))) {
                s.remove("volumeMode");
            }
            for (String kind : List.of("requests", "limits")) {
                if (s.path("resources").path(kind) instanceof ObjectNode r) {
                    if (kind.equals("requests")) {
                        r.remove("storage");
                    }
                    canonicalQuantities(r);
                }
            }
        }
        return normalize(t);
    }

    private static void canonicalQuantities(ObjectNode resources) {
        List<String> names = new ArrayList<>();
        resources.fieldNames().forEachRemaining(names::add);
        for (String n : names) {
            Quantity q = Quantity.parseOrNull(resources.path(n).asText());
            if (q != null) {
                resources.put(n, q.toString());
            }
        }
    }

    /** The top-level keys (dotted one level into metadata and spec) whose values differ. */
    static List<String> differingFields(JsonNode a, JsonNode b) {
        List<String> out = new ArrayList<>();
        for (String section : List.of("metadata", "spec")) {
            JsonNode x = a == null ? null : a.get(section);
            JsonNode y = b == null ? null : b.get(section);
            Set<String> keys = new java.util.TreeSet<>();
            if (x != null) {
                x.fieldNames().forEachRemaining(keys::add);
            }
            if (y != null) {
                y.fieldNames().forEachRemaining(keys::add);
            }
            for (String k : keys) {
                JsonNode vx = x == null ? null : x.get(k);
                JsonNode vy = y == null ? null : y.get(k);
                if (vx == null ? vy != null : !vx.equals(vy)) {
                    out.add(section + "." + k);
                }
            }
        }
        return out;
    }

    /**
     * The paths where {@code declared} sets a value the live tree does not hold. The live tree may carry
     * more (defaults the server filled in), so only what the manifest says is judged; quantities and
     * numbers compare by value.
     */
    static List<String> notContained(JsonNode declared, JsonNode live, String path) {
        List<String> out = new ArrayList<>();
        collectNotContained(declared, live, path, out);
        return out;
    }

    private static void collectNotContained(JsonNode d, JsonNode l, String path, List<String> out) {
        if (d == null || d.isNull() || d.isMissingNode()) {
            return;
        }
        if (d.isObject()) {
            if (d.isEmpty()) {
                return;
            }
            if (l == null || !l.isObject()) {
                out.add(path);
                return;
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = d.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                collectNotContained(e.getValue(), l.get(e.getKey()), path + "." + e.getKey(), out);
            }
            return;
        }
        if (d.isArray()) {
            if (d.isEmpty()) {
                return;
            }
            if (l == null || !l.isArray() || l.size() != d.size()) {
                out.add(path);
                return;
            }
            for (int i = 0; i < d.size(); i++) {
                collectNotContained(d.get(i), l.get(i), path + "[" + i + "]", out);
            }
            return;
        }
        if (l == null || !sameScalar(d, l)) {
            out.add(path);
        }
    }

    /** Equal text, or equal as quantities: {@code 0.5} cpu is {@code 500m}, port {@code 80} is {@code 80.0}. */
    private static boolean sameScalar(JsonNode d, JsonNode l) {
        String a = d.asText();
        String b = l.asText();
        if (a.equals(b)) {
            return true;
        }
        Quantity qa = Quantity.parseOrNull(a);
        Quantity qb = Quantity.parseOrNull(b);
        return qa != null && qa.equals(qb);
    }
}
