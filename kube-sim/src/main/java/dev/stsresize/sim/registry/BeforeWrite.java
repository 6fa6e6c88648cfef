package dev.stsresize.sim.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.admission.CreateValidation;
import dev.stsresize.sim.admission.ObjectMetaValidation;
import dev.stsresize.sim.admission.ObjectValidation;
import dev.stsresize.sim.registry.strategy.Strategy;
import dev.stsresize.sim.store.ResourceType;
import java.util.ArrayList;
import java.util.List;

/**
 * The validation every resource gets, around its strategy's hooks, as rest.BeforeCreate and rest.BeforeUpdate
 * run it (staging/src/k8s.io/apiserver/pkg/registry/rest/create.go, update.go). Each stage answers its own 422,
 * so the first stage with an error decides what the client reads: names (create only), then the object's size
 * and content, then labels and spec, then the rules on the change itself (update only).
 */
final class BeforeWrite {
    private BeforeWrite() {}

    static void create(Strategy s, ResourceType t, ObjectNode obj) {
        ObjectMetaValidation.validateCreate(t, s.nameErrorGroup(t), obj, s.validateNames(t, obj));
        ObjectValidation.validate(t, obj, s.validateContent(null, obj));
        CreateValidation.validate(t.group(), t.kind(), obj, s.validateSpec(obj));
    }

    static void update(Strategy s, ResourceType t, ObjectNode old, ObjectNode next) {
        refuseNewFinalizersWhileDeleting(t, old, next);
        CreateValidation.validate(t.group(), t.kind(), next, s.validateSpecUpdate(next));
        ObjectValidation.validate(t, next, s.validateContent(old, next));
        s.validateUpdate(next, old);
    }

    /** ValidateObjectMetaUpdate: an object being deleted may lose finalizers, never gain them. */
    private static void refuseNewFinalizersWhileDeleting(ResourceType t, ObjectNode old, ObjectNode next) {
        if (!old.path("metadata").has("deletionTimestamp")) {
            return;
        }
        List<String> before = new ArrayList<>();
        old.path("metadata").path("finalizers").forEach(f -> before.add(f.asText()));
        List<String> added = new ArrayList<>();
        next.path("metadata").path("finalizers").forEach(f -> {
            if (!before.contains(f.asText())) {
                added.add("\"" + f.asText() + "\"");
            }
        });
        if (!added.isEmpty()) {
            throw ApiError.invalid(t.group(), t.kind(), next.path("metadata").path("name").asText(), List.of(new ApiError.Cause(
                    "FieldValueForbidden", "Forbidden: no new finalizers can be added if the object is being deleted, found new "
                    + "finalizers []string{" + String.join(", ", added) + "}", "metadata.finalizers")));
        }
    }
}
