package dev.stsresize.sim.patch;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;

/**
 * The Status errors the patch handlers of kube-apiserver produce, built the way
 * k8s.io/apimachinery/pkg/api/errors builds them.
 */
final class PatchErrors {
    private PatchErrors() {}

    /** errors.NewBadRequest: 400, reason BadRequest, no details. */
    static ApiError badRequest(String message) {
        return ApiError.of(400, "BadRequest", message, null);
    }

    /**
     * errors.NewGenericServerResponse(422, "", GroupResource{}, "", err, 0, false), which
     * endpoints/handlers/patch.go (applyJSPatch) returns when a JSON patch operation fails:
     * the operation's own error text is dropped and the details are empty. interpretStrategicMergePatchError
     * answers a strategic patch's ErrNoListOfLists the same way.
     */
    static ApiError jsonPatchFailed() {
        ObjectNode details = PatchTrees.NODES.objectNode();
        return ApiError.of(422, "Invalid", "the server rejected our request due to an error in our request", details);
    }

    /** errors.NewInternalError: what the handler answers for a plain Go error from strategicpatch. */
    static ApiError internal(String error) {
        ObjectNode details = PatchTrees.NODES.objectNode();
        details.putArray("causes").addObject().put("message", error);
        return ApiError.of(500, "InternalError", "Internal error occurred: " + error, details);
    }

    /** errors.NewRequestEntityTooLargeError. */
    static ApiError tooLarge(String message) {
        return ApiError.of(413, "RequestEntityTooLarge", "Request entity too large: " + message, null);
    }
}
