package dev.stsresize.sim.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.store.Selector;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The create-time checks of the kinds the plugin writes, with apimachinery's field error texts:
 * ValidateStatefulSetSpec (pkg/apis/apps/validation: selector required, not empty, matching the
 * template labels; containers required) and ValidatePersistentVolumeClaimSpec (pkg/apis/core/validation:
 * an access mode, a storage request).
 */
public final class CreateValidation {
    private CreateValidation() {}

    public static void validate(String kind, ObjectNode o) {
        List<ApiError.Cause> causes = switch (kind) {
            case "StatefulSet" -> statefulSet(o.path("spec"));
            case "PersistentVolumeClaim" -> claim(o.path("spec"));
            default -> List.of();
        };
        if (!causes.isEmpty()) {
            String group = kind.equals("StatefulSet") ? "apps" : "";
            throw ApiError.invalid(group, kind, o.path("metadata").path("name").asText(), causes);
        }
    }

    private static List<ApiError.Cause> statefulSet(JsonNode spec) {
        List<ApiError.Cause> causes = new ArrayList<>();
        JsonNode selector = spec.path("selector");
        JsonNode labels = spec.path("template").path("metadata").path("labels");
        if (selector.isMissingNode() || selector.isNull()) {
            causes.add(required("spec.selector", ""));
        } else if (selector.path("matchLabels").isEmpty() && selector.path("matchExpressions").isEmpty()) {
            causes.add(new ApiError.Cause("FieldValueInvalid", "Invalid value: \"\": empty selector is invalid for statefulset", "spec.selector"));
        } else if (!matches(selector, labels)) {
            causes.add(new ApiError.Cause("FieldValueInvalid", "Invalid value: " + goMap(labels)
                    + ": `selector` does not match template `labels`", "spec.template.metadata.labels"));
        }
        if (spec.path("template").path("spec").path("containers").isEmpty()) {
            causes.add(required("spec.template.spec.containers", ""));
        }
        return causes;
    }

    private static List<ApiError.Cause> claim(JsonNode spec) {
        List<ApiError.Cause> causes = new ArrayList<>();
        if (spec.path("accessModes").isEmpty()) {
            causes.add(required("spec.accessModes", "at least 1 access mode is required"));
        }
        if (!spec.path("resources").path("requests").has("storage")) {
            causes.add(required("spec.resources[storage]", ""));
        }
        return causes;
    }

    private static ApiError.Cause required(String field, String detail) {
        return new ApiError.Cause("FieldValueRequired", detail.isEmpty() ? "Required value" : "Required value: " + detail, field);
    }

    /** The selector (matchLabels and matchExpressions) against the template labels. */
    private static boolean matches(JsonNode selector, JsonNode labels) {
        List<String> parts = new ArrayList<>();
        selector.path("matchLabels").fields().forEachRemaining(e -> parts.add(e.getKey() + "=" + e.getValue().asText()));
        for (JsonNode r : selector.path("matchExpressions")) {
            List<String> vs = new ArrayList<>();
            r.path("values").forEach(v -> vs.add(v.asText()));
            String key = r.path("key").asText();
            parts.add(switch (r.path("operator").asText()) {
                case "In" -> key + " in (" + String.join(",", vs) + ")";
                case "NotIn" -> key + " notin (" + String.join(",", vs) + ")";
                case "DoesNotExist" -> "!" + key;
                default -> key;
            });
        }
        ObjectNode holder = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        holder.putObject("metadata").set("labels", labels.isObject() ? labels : holder.objectNode());
        return Selector.labels(String.join(",", parts)).test(holder);
    }

    /** Go's %#v of a map[string]string: keys sorted, {@code map[string]string{"a":"b", "c":"d"}}. */
    static String goMap(JsonNode labels) {
        if (!labels.isObject()) {
            return "map[string]string(nil)";
        }
        Map<String, String> sorted = new TreeMap<>();
        labels.fields().forEachRemaining(e -> sorted.put(e.getKey(), e.getValue().asText()));
        StringBuilder b = new StringBuilder("map[string]string{");
        boolean first = true;
        for (Map.Entry<String, String> e : sorted.entrySet()) {
            b.append(first ? "" : ", ").append('"').append(e.getKey()).append("\":\"").append(e.getValue()).append('"');
            first = false;
        }
        return b.append('}').toString();
    }
}
