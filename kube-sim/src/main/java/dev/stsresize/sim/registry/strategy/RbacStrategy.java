package dev.stsresize.sim.registry.strategy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.admission.ObjectMetaValidation;
import dev.stsresize.sim.store.ResourceType;
import java.util.List;

/**
 * Roles, ClusterRoles and their bindings (pkg/registry/rbac/role/strategy.go and its siblings, with
 * pkg/apis/rbac/validation ValidateRBACName): a name is only a path segment.
 */
final class RbacStrategy implements Strategy {
    @Override
    public List<ApiError.Cause> validateNames(ResourceType t, ObjectNode obj) {
        return ObjectMetaValidation.names(obj, t.namespaced(), ObjectMetaValidation.PATH_SEGMENT);
    }
}
