package dev.stsresize.sim.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * ValidatePersistentVolumeClaimUpdate (pkg/apis/core/validation/validation.go, v1.32): the spec is
 * immutable except resources.requests (for bound claims) and volumeAttributesClassName; volumeName may
 * be set once. A decrease of the storage request ({@code newSize.Cmp(oldSize) < 0}) is refused "field can
 * not be less than previous value" without {@code opts.EnableRecoverFromExpansionFailure} (the
 * RecoverVolumeExpansionFailure gate, {@link FeatureGates}); with it, accepted only while strictly above
 * status.capacity ({@code newSize.Cmp(statusSize) <= 0} is refused "field can not be less than
 * status.capacity"). The Go cmp.Diff of the spec is simplified to the changed leaves, one "-"/"+" pair each.
 */
public final class ClaimValidation {
    static final String IMMUTABLE = "spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims";

    private ClaimValidation() {}

    public static void validateUpdate(ObjectNode old, ObjectNode updated) {
        validateUpdate(old, updated, true);
    }

    /** @param recoverFromExpansionFailure the RecoverVolumeExpansionFailure gate */
    public static void validateUpdate(ObjectNode old, ObjectNode updated, boolean recoverFromExpansionFailure) {
        ObjectNode oldSpec = spec(old);
        ObjectNode newSpec = spec(updated);
        if (oldSpec.path("volumeName").asText("").isEmpty()) {
            copy(newSpec, oldSpec, "volumeName");
        }
        copy(newSpec, oldSpec, "volumeAttributesClassName");
        boolean bound = "Bound".equals(updated.path("status").path("phase").asText());
        if (bound) {
            // the validation copies the old storage request over the new one before comparing
            JsonNode oldStorage = oldSpec.path("resources").path("requests").get("storage");
            if (newSpec.path("resources").path("requests") instanceof ObjectNode req && oldStorage != null) {
                req.set("storage", oldStorage);
            }
        }
        String name = updated.path("metadata").path("name").asText();
        List<ApiError.Cause> causes = new ArrayList<>();
        if (!oldSpec.equals(newSpec)) {
            String message = "Forbidden: " + IMMUTABLE + "\n" + diff(oldSpec, newSpec);
            causes.add(new ApiError.Cause("FieldValueForbidden", message, "spec"));
        }
        String oldSize = old.path("spec").path("resources").path("requests").path("storage").asText("0");
        String newSize = updated.path("spec").path("resources").path("requests").path("storage").asText("0");
        String capacity = old.path("status").path("capacity").path("storage").asText("0");
        if (Quantities.compare(newSize, oldSize) < 0 && !recoverFromExpansionFailure) {
            causes.add(new ApiError.Cause("FieldValueForbidden", "Forbidden: field can not be less than previous value",
                    "spec.resources.requests.storage"));
        } else if (Quantities.compare(newSize, oldSize) < 0 && Quantities.compare(newSize, capacity) <= 0) {
            causes.add(new ApiError.Cause("FieldValueForbidden", "Forbidden: field can not be less than status.capacity",
                    "spec.resources.requests.storage"));
        }
        if (!causes.isEmpty()) {
            throw ApiError.invalid("", "PersistentVolumeClaim", name, causes);
        }
    }

    private static ObjectNode spec(ObjectNode o) {
        return o.get("spec") instanceof ObjectNode s ? s.deepCopy() : o.objectNode();
    }

    private static void copy(ObjectNode to, ObjectNode from, String field) {
        if (to.has(field)) {
            from.set(field, to.get(field));
        } else {
            from.remove(field);
        }
    }

    /** A cmp.Diff-like listing of the leaves that differ, e.g. {@code -	StorageClassName: "a"}. */
    static String diff(ObjectNode oldSpec, ObjectNode newSpec) {
        return diff("core.PersistentVolumeClaimSpec", oldSpec, newSpec);
    }

    /** The same for a Go struct of another type. */
    static String diff(String goType, ObjectNode oldSpec, ObjectNode newSpec) {
        StringBuilder b = new StringBuilder("  " + goType + "{\n");
        diffInto(b, "", oldSpec, newSpec);
        return b.append("  }\n").toString();
    }

    private static void diffInto(StringBuilder b, String path, JsonNode a, JsonNode c) {
        if (a != null && c != null && a.isObject() && c.isObject()) {
            List<String> keys = new ArrayList<>();
            a.fieldNames().forEachRemaining(keys::add);
            for (Iterator<String> it = c.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                if (!keys.contains(k)) {
                    keys.add(k);
                }
            }
            keys.sort(null);
            for (String k : keys) {
                diffInto(b, path.isEmpty() ? goName(k) : path + "." + goName(k), a.get(k), c.get(k));
            }
            return;
        }
        if (a == null ? c == null : a.equals(c)) {
            return;
        }
        if (a != null) {
            b.append("- \t").append(path).append(": ").append(a).append(",\n");
        }
        if (c != null) {
            b.append("+ \t").append(path).append(": ").append(c).append(",\n");
        }
    }

    private static String goName(String jsonName) {
        return Character.toUpperCase(jsonName.charAt(0)) + jsonName.substring(1);
    }

}
