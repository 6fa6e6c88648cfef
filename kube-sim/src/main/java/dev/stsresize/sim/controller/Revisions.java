package dev.stsresize.sim.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * ControllerRevisions of a StatefulSet as pkg/controller/statefulset/stateful_set_utils.go
 * (getPatch, newRevision) and pkg/controller/history/controller_history.go make them: the data is
 * {@code {"spec":{"template":{…,"$patch":"replace"}}}} — the pod template only, never the claim
 * templates, so a re-apply with grown claim templates finds the same revision — and the name is
 * {@code <set>-<hash>} with hash = rand.SafeEncodeString(FNV-32 of the JSON (keys sorted, as Go
 * marshals a map) followed by the collision count).
 */
final class Revisions {
    /** On pods: the name of the revision they run (apps.ControllerRevisionHashLabelKey). */
    static final String HASH_LABEL = "controller-revision-hash";
    /** On revisions: their hash (history.ControllerRevisionHashLabel). */
    static final String REVISION_HASH_LABEL = "controller.kubernetes.io/hash";
    private static final String ALPHANUMS = "bcdfghjklmnpqrstvwxz2456789";

    private Revisions() {}

    /** getPatch: the pod template with {@code $patch: replace}, under spec. */
    static ObjectNode data(JsonNode set) {
        ObjectNode template = set.path("spec").path("template").deepCopy();
        template.put("$patch", "replace");
        ObjectNode data = ObjectMeta.NODES.objectNode();
        data.putObject("spec").set("template", template);
        return sorted(data);
    }

    static String hash(ObjectNode data, int collisionCount) {
        byte[] raw = (data.toString() + collisionCount).getBytes(StandardCharsets.UTF_8);
        int h = 0x811c9dc5; // FNV-1 32-bit (hash/fnv New32): multiply, then xor
        for (byte b : raw) {
            h *= 0x01000193;
            h ^= (b & 0xff);
        }
        String decimal = Long.toString(Integer.toUnsignedLong(h));
        StringBuilder s = new StringBuilder();
        for (char c : decimal.toCharArray()) {
            s.append(ALPHANUMS.charAt(c % ALPHANUMS.length()));
        }
        return s.toString();
    }

    /** history.EqualRevision: same data, ignoring the null fields a snapshot may or may not carry. */
    static boolean sameData(JsonNode a, JsonNode b) {
        return withoutNulls(a).equals(withoutNulls(b));
    }

    /** The pod template a revision records (to recreate a pod below the partition at the current revision). */
    static ObjectNode template(JsonNode revision) {
        ObjectNode t = revision.path("data").path("spec").path("template").deepCopy();
        t.remove("$patch");
        return t;
    }

    private static JsonNode withoutNulls(JsonNode n) {
        if (n instanceof ObjectNode o) {
            ObjectNode c = ObjectMeta.NODES.objectNode();
            for (Map.Entry<String, JsonNode> e : ObjectMeta.iterable(o)) {
                if (!e.getValue().isNull() && !e.getKey().equals("$patch")) {
                    c.set(e.getKey(), withoutNulls(e.getValue()));
                }
            }
            return c;
        }
        if (n instanceof ArrayNode a) {
            ArrayNode c = ObjectMeta.NODES.arrayNode();
            a.forEach(x -> c.add(withoutNulls(x)));
            return c;
        }
        return n;
    }

    private static ObjectNode sorted(ObjectNode o) {
        TreeMap<String, JsonNode> fields = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            fields.put(e.getKey(), e.getValue());
        }
        ObjectNode c = ObjectMeta.NODES.objectNode();
        fields.forEach((k, v) -> c.set(k, sortedAny(v)));
        return c;
    }

    private static JsonNode sortedAny(JsonNode n) {
        if (n instanceof ObjectNode o) {
            return sorted(o);
        }
        if (n instanceof ArrayNode a) {
            ArrayNode c = ObjectMeta.NODES.arrayNode();
            List<JsonNode> items = new ArrayList<>();
            a.forEach(items::add);
            items.forEach(x -> c.add(sortedAny(x)));
            return c;
        }
        return n;
    }
}
