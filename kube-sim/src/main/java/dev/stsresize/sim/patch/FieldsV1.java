package dev.stsresize.sim.patch;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The FieldsV1 encoding of a {@link FieldSet} (structured-merge-diff fieldpath/serialize.go):
 * {@code {"f:spec":{"f:replicas":{}}}}; a path that is both owned and a prefix of owned paths
 * carries {@code ".":{}} among its children.
 */
final class FieldsV1 {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private FieldsV1() {}

    static ObjectNode encode(FieldSet set) {
        ObjectNode out = PatchTrees.NODES.objectNode();
        emit(set, out);
        return out;
    }

    /** Members and children interleave in PathElement order, as emitContentsV1 writes them. */
    private static void emit(FieldSet set, ObjectNode out) {
        TreeSet<PathElement> all = new TreeSet<>(set.members());
        all.addAll(set.children().keySet());
        for (PathElement pe : all) {
            FieldSet child = set.children().get(pe);
            ObjectNode node = out.putObject(pe.serialize());
            if (child != null && !child.isEmpty()) {
                if (set.members().contains(pe)) {
                    node.putObject(".");
                }
                emit(child, node);
            }
        }
    }

    /** Decodes FieldsV1; throws IllegalArgumentException on an element it cannot read. */
    static FieldSet decode(JsonNode fields) {
        FieldSet set = new FieldSet();
        if (fields != null && fields.isObject()) {
            read(fields, new ArrayList<>(), set);
        }
        return set;
    }

    private static void read(JsonNode node, List<PathElement> prefix, FieldSet set) {
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            if (e.getKey().equals(".")) {
                set.insert(List.copyOf(prefix));
                continue;
            }
            prefix.add(element(e.getKey()));
            if (e.getValue().isEmpty()) {
                set.insert(List.copyOf(prefix));
            } else {
                read(e.getValue(), prefix, set);
            }
            prefix.remove(prefix.size() - 1);
        }
    }

    static PathElement element(String text) {
        if (text.length() < 2 || text.charAt(1) != ':') {
            throw new IllegalArgumentException("bad FieldsV1 element: " + text);
        }
        String body = text.substring(2);
        try {
            return switch (text.charAt(0)) {
                case 'f' -> new PathElement.Field(body);
                case 'v' -> new PathElement.Value(MAPPER.readTree(body));
                case 'i' -> new PathElement.Index(Integer.parseInt(body));
                case 'k' -> {
                    TreeMap<String, JsonNode> key = new TreeMap<>();
                    MAPPER.readTree(body).properties().forEach(f -> key.put(f.getKey(), f.getValue()));
                    yield new PathElement.Key(key);
                }
                default -> throw new IllegalArgumentException("bad FieldsV1 element: " + text);
            };
        } catch (JsonProcessingException | NumberFormatException e) {
            throw new IllegalArgumentException("bad FieldsV1 element: " + text, e);
        }
    }
}
