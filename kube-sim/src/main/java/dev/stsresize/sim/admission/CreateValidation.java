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
 * The create-time checks of the kinds the plugin writes, with apimachinery's field error texts (labels of
 * every kind: {@link LabelValidation}):
 * ValidateStatefulSetSpec (pkg/apis/apps/validation: selector required, not empty, matching the
 * template labels; containers required) and ValidatePersistentVolumeClaimSpec (pkg/apis/core/validation:
 * an access mode, a storage request).
 */
public final class CreateValidation {
    private CreateValidation() {}

    /**
     * ValidateObjectMeta's label check (every kind), then what the kind's strategy found in the spec
     * ({@code specCauses}: {@link #statefulSet}, {@link #claim} on create, {@link #statefulSetOnUpdate} on
     * update): metadata errors first, as ValidateStatefulSet and ValidatePersistentVolumeClaim append them.
     */
    public static void validate(String group, String kind, ObjectNode o, List<ApiError.Cause> specCauses) {
        List<ApiError.Cause> causes = new ArrayList<>(LabelValidation.labels(o.path("metadata").path("labels"), "metadata.labels"));
        causes.addAll(specCauses);
        if (!causes.isEmpty()) {
            throw ApiError.invalid(group, kind, o.path("metadata").path("name").asText(), causes);
        }
    }

    /**
     * ValidateStatefulSetUpdate runs ValidateStatefulSetSpec on the new spec: of it, what a stored
     * StatefulSet may newly break (replicas, selector and template labels). Only the checks a stored
     * object may newly break are repeated.
     */
    public static List<ApiError.Cause> statefulSetOnUpdate(JsonNode spec) {
        List<ApiError.Cause> causes = replicasAndSelectorLabels(spec);
        causes.addAll(LabelValidation.labels(spec.path("template").path("metadata").path("labels"), "spec.template.labels"));
        return causes;
    }

    /** The first checks of ValidateStatefulSetSpec: replicas not negative, the selector's matchLabels as labels. */
    private static List<ApiError.Cause> replicasAndSelectorLabels(JsonNode spec) {
        List<ApiError.Cause> causes = new ArrayList<>();
        JsonNode replicas = spec.path("replicas");
        if (replicas.isNumber() && replicas.asLong() < 0) {
            // apimachinery/pkg/api/validation ValidateNonnegativeField
            causes.add(new ApiError.Cause("FieldValueInvalid", "Invalid value: " + replicas.asLong()
                    + ": must be greater than or equal to 0", "spec.replicas"));
        }
        causes.addAll(LabelValidation.labels(spec.path("selector").path("matchLabels"), "spec.selector.matchLabels"));
        return causes;
    }

    /**
     * ValidateStatefulSetSpec (pkg/apis/apps/validation/validation.go), in its order: replicas not
     * negative, selector (its matchLabels as labels), the template's labels (ValidatePodTemplateSpecForStatefulSet
     * checks them at "spec.template.labels"). Claim templates are NOT validated there: a template without
     * a positive storage request is stored, and only the claims the controller creates from it are refused.
     */
    public static List<ApiError.Cause> statefulSet(JsonNode spec) {
        List<ApiError.Cause> causes = replicasAndSelectorLabels(spec);
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
        causes.addAll(LabelValidation.labels(labels, "spec.template.labels"));
        if (spec.path("template").path("spec").path("containers").isEmpty()) {
            causes.add(required("spec.template.spec.containers", ""));
        }
        return causes;
    }

    /** ValidatePersistentVolumeClaimSpec: an access mode, a positive storage request. */
    public static List<ApiError.Cause> claim(JsonNode spec) {
        List<ApiError.Cause> causes = new ArrayList<>();
        if (spec.path("accessModes").isEmpty()) {
            causes.add(required("spec.accessModes", "at least 1 access mode is required"));
        }
        JsonNode storage = spec.path("resources").path("requests").path("storage");
        if (storage.isMissingNode()) {
            causes.add(required("spec.resources[storage]", ""));
        } else if (Quantities.isValid(storage.asText()) && Quantities.value(storage.asText()).signum() <= 0) {
            // ValidatePositiveQuantityValue: field.Invalid(path, value.String(), "must be greater than zero")
            causes.add(new ApiError.Cause("FieldValueInvalid", "Invalid value: \"" + Quantities.canonical(storage.asText())
                    + "\": must be greater than zero", "spec.resources[storage]"));
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
