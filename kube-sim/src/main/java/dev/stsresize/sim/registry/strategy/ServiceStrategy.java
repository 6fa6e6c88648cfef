package dev.stsresize.sim.registry.strategy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.admission.ObjectMetaValidation;
import dev.stsresize.sim.store.ResourceType;
import java.util.List;

/**
 * pkg/registry/core/service/strategy.go and storage/storage.go: names are DNS-1035 labels (ValidateServiceName);
 * an update that omits the cluster IPs keeps the allocated ones (patchAllocatedValues: a client-side apply never
 * names them).
 */
final class ServiceStrategy implements Strategy {
    @Override
    public void prepareForUpdate(ResourceType t, ObjectNode next, ObjectNode old) {
        ObjectNode spec = next.withObject("/spec");
        for (String f : new String[] {"clusterIP", "clusterIPs"}) {
            if (!spec.has(f) && old.path("spec").has(f)) {
                spec.set(f, old.path("spec").get(f).deepCopy());
            }
        }
        Strategy.super.prepareForUpdate(t, next, old);
    }

    @Override
    public List<ApiError.Cause> validateNames(ResourceType t, ObjectNode obj) {
        return ObjectMetaValidation.names(obj, t.namespaced(), ObjectMetaValidation.DNS1035_LABEL_RULE);
    }
}
