package dev.stsresize.sim.registry.strategy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.admission.CreateValidation;
import dev.stsresize.sim.admission.ObjectMetaValidation;
import dev.stsresize.sim.admission.StatefulSetValidation;
import dev.stsresize.sim.store.ResourceType;
import java.util.List;

/**
 * pkg/registry/apps/statefulset/strategy.go: a new set reads back with a zero status; the main resource keeps
 * the stored status (the generic default), the status subresource the stored spec; names are DNS labels
 * (ValidateStatefulSetName); ValidateStatefulSetSpec on create, and on update the spec's mutable fields only
 * ({@link StatefulSetValidation}).
 */
final class StatefulSetStrategy implements Strategy {
    @Override
    public void initialStatus(ObjectNode obj) {
        // apps.StatefulSetStatus{}: its replicas and availableReplicas are not omitempty
        obj.withObject("/status").put("replicas", 0).put("availableReplicas", 0);
    }

    /** NameIsDNSLabel since DNS-subdomain names could not create pods (v1.24 still used NameIsDNSSubdomain). */
    @Override
    public List<ApiError.Cause> validateNames(ResourceType t, ObjectNode obj) {
        return ObjectMetaValidation.names(obj, t.namespaced(), ObjectMetaValidation.DNS_LABEL);
    }

    @Override
    public List<ApiError.Cause> validateSpec(ObjectNode obj) {
        return CreateValidation.statefulSet(obj.path("spec"));
    }

    @Override
    public List<ApiError.Cause> validateSpecUpdate(ObjectNode obj) {
        return CreateValidation.statefulSetOnUpdate(obj.path("spec"));
    }

    @Override
    public void validateUpdate(ObjectNode next, ObjectNode old) {
        StatefulSetValidation.validateUpdate(old, next);
    }
}
