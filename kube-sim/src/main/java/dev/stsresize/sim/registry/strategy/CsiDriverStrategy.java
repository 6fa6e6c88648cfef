package dev.stsresize.sim.registry.strategy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.admission.ObjectValidation;
import java.util.List;

/** pkg/registry/storage/csidriver/strategy.go: ValidateCSIDriver and ValidateCSIDriverUpdate ({@link ObjectValidation#csiDriver}). */
final class CsiDriverStrategy implements Strategy {
    @Override
    public List<ApiError.Cause> validateContent(ObjectNode old, ObjectNode obj) {
        return ObjectValidation.csiDriver(old, obj);
    }
}
