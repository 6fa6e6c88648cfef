package dev.stsresize.sim.registry.strategy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.admission.VolumeValidation;
import java.util.List;

/**
 * pkg/registry/core/persistentvolume/strategy.go: status is the PV controller's (the generic defaults);
 * ValidatePersistentVolume on create and ValidatePersistentVolumeUpdate on update ({@link VolumeValidation}):
 * the reclaim policy and claimRef may be changed by a PATCH, the volume source and volumeMode may not.
 */
final class PersistentVolumeStrategy implements Strategy {
    @Override
    public List<ApiError.Cause> validateSpec(ObjectNode obj) {
        return VolumeValidation.spec(obj.path("spec"));
    }

    @Override
    public void validateUpdate(ObjectNode next, ObjectNode old) {
        VolumeValidation.validateUpdate(old, next);
    }
}
