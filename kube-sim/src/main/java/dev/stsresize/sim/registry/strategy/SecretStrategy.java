package dev.stsresize.sim.registry.strategy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.admission.ObjectValidation;
import java.util.List;

/** pkg/registry/core/secret/strategy.go: ValidateSecret and ValidateSecretUpdate ({@link ObjectValidation#secret}). */
final class SecretStrategy implements Strategy {
    @Override
    public List<ApiError.Cause> validateContent(ObjectNode old, ObjectNode obj) {
        return ObjectValidation.secret(old, obj);
    }
}
