package dev.stsresize.sim.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.SimCluster;

/** What every controller shares: the cluster, the kinds, the pace, an event recorder and the manager that schedules it. */
record Context(SimCluster sim, Kinds kinds, Timings timings, EventRecorder events, ControllerManager manager) {
    Api api(String fieldManager) {
        return new Api(sim.registry(), fieldManager);
    }

    ObjectNode storageClassOf(JsonNode claim) {
        String name = claim.path("spec").path("storageClassName").asText("");
        return name.isEmpty() ? null : sim.store().get(kinds.storageClasses(), "", name);
    }

    /**
     * Which resizer serves a claim's class: the class's {@value ControllerManager#RESIZER_ANNOTATION}
     * annotation ({@code online}, {@code offline}, {@code infeasible}, {@code none}); without it
     * {@code online} for an expandable class (a CSI driver with online expansion), else {@code none}.
     * A class of {@code kubernetes.io/no-provisioner} is always {@code none}, whatever it says.
     */
    String resizerOf(JsonNode claim) {
        ObjectNode sc = storageClassOf(claim);
        if (sc == null) {
            return "none";
        }
        if (VolumeBinder.NO_PROVISIONER.equals(sc.path("provisioner").asText())) {
            return "none"; // no plugin and no external resizer can expand a local volume: ExternalExpanding, nothing more
        }
        String declared = sc.path("metadata").path("annotations").path(ControllerManager.RESIZER_ANNOTATION).asText("");
        if (!declared.isEmpty()) {
            return declared;
        }
        return sc.path("allowVolumeExpansion").asBoolean(false) ? "online" : "none";
    }
}
