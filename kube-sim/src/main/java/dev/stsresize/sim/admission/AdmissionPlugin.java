package dev.stsresize.sim.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.store.ResourceType;

/**
 * One admission plugin, as staging/src/k8s.io/apiserver/pkg/admission/interfaces.go defines them: a name,
 * the requests it handles ({@code Handles}), and either {@link Mutating#admit} (MutationInterface.Admit, may
 * change the object) or {@link Validating#validate} (ValidationInterface.Validate, may only refuse). The
 * {@link AdmissionChain} runs them in its order; a plugin throws the {@code ApiError} the real one answers.
 */
public interface AdmissionPlugin {
    /** The name kube-apiserver's --enable-admission-plugins knows it by, e.g. "ResourceQuota". */
    String name();

    /** Handles(operation) widened to the attributes: most plugins look at one resource only. */
    boolean handles(Attributes a);

    /** admission.Operation, as far as the simulated cluster's writes go. */
    enum Operation { CREATE, UPDATE }

    /**
     * admission.Attributes: the operation, the resource and subresource written, and the objects: {@code object}
     * as it will be stored (after the strategy and defaulting), {@code oldObject} null on create.
     */
    record Attributes(Operation operation, ResourceType type, String subresource, ObjectNode object, ObjectNode oldObject) {
        public boolean isMainResource(String groupResource) {
            return subresource.isEmpty() && type.groupResource().equals(groupResource);
        }
    }

    /** MutationInterface: runs before validation and may change {@code object}. */
    interface Mutating extends AdmissionPlugin {
        void admit(Attributes a);
    }

    /** ValidationInterface: runs after the strategy's validation; refuses by throwing, never changes the object. */
    interface Validating extends AdmissionPlugin {
        void validate(Attributes a);
    }
}
