package dev.stsresize.sim.registry.strategy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.admission.ClaimValidation;
import dev.stsresize.sim.admission.CreateValidation;
import dev.stsresize.sim.admission.FeatureGates;
import java.util.List;

/**
 * pkg/registry/core/persistentvolumeclaim/strategy.go: status is the controllers' (cleared on create, kept on
 * an update of the claim, the only thing a status update changes: the generic defaults);
 * ValidatePersistentVolumeClaim on create and ValidatePersistentVolumeClaimUpdate ({@link ClaimValidation}).
 * Whether a larger request may be asked for at all is admission's (PersistentVolumeClaimResize, ResourceQuota).
 */
final class PersistentVolumeClaimStrategy implements Strategy {
    private final FeatureGates gates;

    PersistentVolumeClaimStrategy(FeatureGates gates) {
        this.gates = gates;
    }

    @Override
    public List<ApiError.Cause> validateSpec(ObjectNode obj) {
        return CreateValidation.claim(obj.path("spec"));
    }

    @Override
    public void validateUpdate(ObjectNode next, ObjectNode old) {
        ClaimValidation.validateUpdate(old, next, gates.recoverVolumeExpansionFailure());
    }
}
