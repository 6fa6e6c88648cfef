package dev.stsresize.converge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.plan.Metadata;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Small readers of raw object trees, and the server fields a create or apply must not carry. */
final class Objects {
    static final ObjectMapper MAPPER = new ObjectMapper();
    /** Metadata the server owns: sent back, it would be a precondition, an error, or a lie. */
    static final List<String> SERVER_METADATA = List.of("resourceVersion", "uid", "managedFields",
            "creationTimestamp", "generation", "selfLink", "deletionTimestamp", "deletionGracePeriodSeconds");

    private Objects() {}

    static String name(JsonNode o) {
        return Metadata.textOrEmpty(o, "metadata", "name");
    }

    static String namespace(JsonNode o) {
        String ns = Metadata.textOrEmpty(o, "metadata", "namespace");
        return ns.isEmpty() ? "default" : ns;
    }

    static String uid(JsonNode o) {
        return Metadata.textOrEmpty(o, "metadata", "uid");
    }

    static String key(JsonNode o) {
        return Metadata.key(o, "default");
    }

    /** The UID of the controller owner reference, or "" when none. */
    static String controllerUid(JsonNode o) {
        for (JsonNode ref : o.path("metadata").path("ownerReferences")) {
            if (ref.path("controller").asBoolean(false)) {
                return ref.path("uid").asText("");
            }
        }
        return "";
    }

    static boolean ownedBy(JsonNode o, String uid) {
        for (JsonNode ref : o.path("metadata").path("ownerReferences")) {
            if (uid.equals(ref.path("uid").asText())) {
                return true;
            }
        }
        return false;
    }

    static boolean hasCondition(JsonNode o, String type) {
        return conditionMessage(o, type).isPresent();
    }

    /** The message of condition {@code type} while it holds (a status other than "False" or "Unknown"); its type when it has none. */
    static java.util.Optional<String> conditionMessage(JsonNode o, String type) {
        for (JsonNode c : o.path("status").path("conditions")) {
            if (type.equals(c.path("type").asText()) && "True".equals(c.path("status").asText("True"))) {
                String message = c.path("message").asText("");
                return java.util.Optional.of(message.isEmpty() ? type : message);
            }
        }
        return java.util.Optional.empty();
    }

    /** A copy with server-owned metadata, finalizers and status removed: what a create or apply may send. */
    static ObjectNode creatable(ObjectNode o) {
        ObjectNode copy = o.deepCopy();
        if (copy.path("metadata") instanceof ObjectNode meta) {
            meta.remove(SERVER_METADATA);
            meta.remove("finalizers");
        }
        copy.remove("status");
        return copy;
    }

    /** A label selector string from a LabelSelector object (matchLabels and matchExpressions). */
    static String selector(JsonNode labelSelector) {
        List<String> parts = new ArrayList<>();
        labelSelector.path("matchLabels").fields()
                .forEachRemaining((Map.Entry<String, JsonNode> e) -> parts.add(e.getKey() + "=" + e.getValue().asText()));
        for (JsonNode x : labelSelector.path("matchExpressions")) {
            String key = x.path("key").asText();
            List<String> values = new ArrayList<>();
            x.path("values").forEach(v -> values.add(v.asText()));
            switch (x.path("operator").asText()) {
                case "In" -> parts.add(key + " in (" + String.join(",", values) + ")");
                case "NotIn" -> parts.add(key + " notin (" + String.join(",", values) + ")");
                case "Exists" -> parts.add(key);
                case "DoesNotExist" -> parts.add("!" + key);
                default -> { }
            }
        }
        return String.join(",", parts);
    }

    /** The object field {@code field} of {@code parent}, created empty when missing (or not an object). */
    static ObjectNode child(ObjectNode parent, String field) {
        JsonNode n = parent.get(field);
        if (n instanceof ObjectNode o) {
            return o;
        }
        return parent.putObject(field);
    }

    static String json(JsonNode o) {
        try {
            return MAPPER.writeValueAsString(o);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ObjectNode parse(String json) {
        try {
            return (ObjectNode) MAPPER.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
