package dev.stsresize.sim.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import java.util.List;

/**
 * ValidateStatefulSetUpdate (pkg/apis/apps/validation/validation.go, v1.32): the spec may change
 * only in replicas, ordinals, template, updateStrategy, persistentVolumeClaimRetentionPolicy and
 * minReadySeconds. Both sides are compared after defaulting, with canonical quantities, which is
 * what apimachinery's Semantic.DeepEqual amounts to.
 */
public final class StatefulSetValidation {
    static final String FORBIDDEN = "Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', "
            + "'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";
    private static final List<String> MUTABLE =
            List.of("replicas", "ordinals", "template", "updateStrategy", "persistentVolumeClaimRetentionPolicy", "minReadySeconds");

    private StatefulSetValidation() {}

    public static void validateUpdate(ObjectNode old, ObjectNode updated) {
        ObjectNode oldSpec = old.path("spec").isObject() ? ((ObjectNode) old.get("spec")).deepCopy() : old.objectNode();
        ObjectNode newSpec = updated.path("spec").isObject() ? ((ObjectNode) updated.get("spec")).deepCopy() : old.objectNode();
        oldSpec.remove(MUTABLE);
        newSpec.remove(MUTABLE);
        if (!oldSpec.equals(newSpec)) {
            String name = updated.path("metadata").path("name").asText();
            throw ApiError.invalid("apps", "StatefulSet", name, List.of(new ApiError.Cause("FieldValueForbidden", FORBIDDEN, "spec")));
        }
    }
}
