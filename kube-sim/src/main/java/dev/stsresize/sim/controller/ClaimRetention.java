package dev.stsresize.sim.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Owner references on a StatefulSet's claims per persistentVolumeClaimRetentionPolicy, as
 * updateClaimOwnerRefForSetAndPod (pkg/controller/statefulset/stateful_set_utils.go) sets them:
 * whenDeleted Delete makes the set the claim's controller (so a Background delete of the set
 * deletes the claim); whenScaled Delete makes a scaled-away pod its owner (so the claim goes with
 * the pod); Retain/Retain leaves no reference of the set or the pod.
 */
final class ClaimRetention {
    private ClaimRetention() {}

    /** Brings the claim's references in line with the policy; true when the claim changed. */
    static boolean apply(ObjectNode claim, JsonNode set, JsonNode pod, boolean podInRange) {
        JsonNode policy = set.path("spec").path("persistentVolumeClaimRetentionPolicy");
        boolean deleteWithSet = "Delete".equals(policy.path("whenDeleted").asText("Retain"));
        boolean deleteOnScale = "Delete".equals(policy.path("whenScaled").asText("Retain"));
        boolean setOwns = deleteWithSet && (podInRange || !deleteOnScale);
        boolean podOwns = deleteOnScale && !podInRange;
        boolean changed = ensure(claim, set, setOwns);
        if (pod != null) {
            changed |= ensure(claim, pod, podOwns);
        }
        return changed;
    }

    private static boolean ensure(ObjectNode claim, JsonNode owner, boolean wanted) {
        String uid = ObjectMeta.uid(owner);
        boolean has = ObjectMeta.ownedBy(claim, uid);
        if (wanted && !has) {
            ObjectMeta.addOwnerRef(claim, ObjectMeta.controllerRefTo(owner));
            return true;
        }
        if (!wanted && has) {
            return ObjectMeta.removeOwnerRefs(claim, r -> r.path("uid").asText().equals(uid));
        }
        return false;
    }
}
