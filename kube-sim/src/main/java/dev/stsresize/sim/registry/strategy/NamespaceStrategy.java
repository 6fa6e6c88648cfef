package dev.stsresize.sim.registry.strategy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.admission.ObjectMetaValidation;
import dev.stsresize.sim.store.ResourceType;
import java.util.List;

/**
 * pkg/registry/core/namespace/strategy.go, as far as the simulator follows it: names are DNS labels
 * (ValidateNamespaceName). The body's status is kept on create and on update, where the real PrepareForCreate
 * sets phase Active and PrepareForUpdate keeps the stored status: the defaults give phase Active when none is
 * sent, and nothing the plugin does sends one.
 */
final class NamespaceStrategy implements Strategy {
    @Override
    public void prepareForCreate(ResourceType t, ObjectNode obj) {}

    @Override
    public void prepareForUpdate(ResourceType t, ObjectNode next, ObjectNode old) {}

    @Override
    public List<ApiError.Cause> validateNames(ResourceType t, ObjectNode obj) {
        return ObjectMetaValidation.names(obj, t.namespaced(), ObjectMetaValidation.DNS_LABEL);
    }
}
