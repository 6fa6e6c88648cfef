package dev.stsresize.sim.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/** The few metadata questions every controller asks of a raw object tree. */
final class ObjectMeta {
    static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private ObjectMeta() {}

    static String ns(JsonNode o) {
        return o.path("metadata").path("namespace").asText("");
    }

    static String name(JsonNode o) {
        return o.path("metadata").path("name").asText("");
    }

    static String uid(JsonNode o) {
        return o.path("metadata").path("uid").asText("");
    }

    static boolean deleting(JsonNode o) {
        return o.path("metadata").hasNonNull("deletionTimestamp");
    }

    static List<String> finalizers(JsonNode o) {
        List<String> out = new ArrayList<>();
        o.path("metadata").path("finalizers").forEach(f -> out.add(f.asText()));
        return out;
    }

    static void setFinalizers(ObjectNode o, List<String> finalizers) {
        ObjectNode meta = o.withObject("/metadata");
        if (finalizers.isEmpty()) {
            meta.remove("finalizers");
        } else {
            ArrayNode a = meta.putArray("finalizers");
            finalizers.forEach(a::add);
        }
    }

    static List<JsonNode> ownerRefs(JsonNode o) {
        List<JsonNode> out = new ArrayList<>();
        o.path("metadata").path("ownerReferences").forEach(out::add);
        return out;
    }

    /** The controller owner reference, or null. */
    static JsonNode controllerRef(JsonNode o) {
        for (JsonNode r : o.path("metadata").path("ownerReferences")) {
            if (r.path("controller").asBoolean(false)) {
                return r;
            }
        }
        return null;
    }

    static boolean ownedBy(JsonNode o, String ownerUid) {
        return ownerRefs(o).stream().anyMatch(r -> r.path("uid").asText().equals(ownerUid));
    }

    /** Drops the references matching {@code drop}; true if any was dropped. */
    static boolean removeOwnerRefs(ObjectNode o, Predicate<JsonNode> drop) {
        List<JsonNode> keep = new ArrayList<>();
        List<JsonNode> refs = ownerRefs(o);
        for (JsonNode r : refs) {
            if (!drop.test(r)) {
                keep.add(r);
            }
        }
        if (keep.size() == refs.size()) {
            return false;
        }
        ObjectNode meta = o.withObject("/metadata");
        if (keep.isEmpty()) {
            meta.remove("ownerReferences");
        } else {
            meta.putArray("ownerReferences").addAll(keep);
        }
        return true;
    }

    static void addOwnerRef(ObjectNode o, ObjectNode ref) {
        o.withObject("/metadata").withArray("ownerReferences").add(ref);
    }

    /** metav1.NewControllerRef: controller and blockOwnerDeletion true. */
    static ObjectNode controllerRefTo(JsonNode owner) {
        ObjectNode ref = ownerRefTo(owner);
        ref.put("controller", true);
        ref.put("blockOwnerDeletion", true);
        return ref;
    }

    static ObjectNode ownerRefTo(JsonNode owner) {
        ObjectNode ref = NODES.objectNode();
        ref.put("apiVersion", owner.path("apiVersion").asText());
        ref.put("kind", owner.path("kind").asText());
        ref.put("name", name(owner));
        ref.put("uid", uid(owner));
        return ref;
    }

    /** Whether {@code labels} satisfy a LabelSelector (matchLabels and matchExpressions); an empty selector matches nothing, as for workloads. */
    static boolean selects(JsonNode selector, JsonNode labels) {
        if (selector == null || selector.isMissingNode() || selector.isEmpty()) {
            return false;
        }
        for (Map.Entry<String, JsonNode> e : iterable(selector.path("matchLabels"))) {
            if (!labels.path(e.getKey()).asText("\u0000").equals(e.getValue().asText())) {
                return false;
            }
        }
        for (JsonNode r : selector.path("matchExpressions")) {
            String key = r.path("key").asText();
            boolean has = labels.has(key);
            List<String> values = new ArrayList<>();
            r.path("values").forEach(v -> values.add(v.asText()));
            boolean ok = switch (r.path("operator").asText()) {
                case "In" -> has && values.contains(labels.get(key).asText());
                case "NotIn" -> !has || !values.contains(labels.get(key).asText());
                case "Exists" -> has;
                case "DoesNotExist" -> !has;
                default -> false;
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** A PodDisruptionBudget's selector (policy/v1): an empty one selects every pod of the namespace, a missing one none. */
    static boolean budgetSelects(JsonNode budget, JsonNode pod) {
        JsonNode selector = budget.path("spec").path("selector");
        if (selector.isObject() && selector.isEmpty()) {
            return true;
        }
        return selects(selector, pod.path("metadata").path("labels"));
    }

    static Iterable<Map.Entry<String, JsonNode>> iterable(JsonNode o) {
        return o::fields;
    }

    /** Equal trees, numbers compared by value (an int 1 and a long 1 are the same generation). */
    static boolean same(JsonNode a, JsonNode b) {
        return a.equals((x, y) -> x.equals(y) || (x.isNumber() && y.isNumber()
                && x.decimalValue().compareTo(y.decimalValue()) == 0) ? 0 : 1, b);
    }

    static boolean conditionTrue(JsonNode o, String type) {
        for (JsonNode c : o.path("status").path("conditions")) {
            if (c.path("type").asText().equals(type)) {
                return c.path("status").asText().equals("True");
            }
        }
        return false;
    }
}
