package dev.stsresize.sim.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.patch.FieldManagement;
import dev.stsresize.sim.patch.Patches;

/** The one place the server calls {@link Patches} and {@link FieldManagement} (the sim.patch contract). */
final class PatchEngine {
    private PatchEngine() {}

    static ObjectNode patch(Patches.Type type, ObjectNode live, JsonNode patch, String apiVersion, String kind) {
        return switch (type) {
            case JSON -> Patches.jsonPatch(live, patch);
            case MERGE -> Patches.mergePatch(live, patch);
            case STRATEGIC -> Patches.strategicMergePatch(live, patch, apiVersion, kind);
            case APPLY -> throw new IllegalArgumentException("apply goes through apply()");
        };
    }

    static ObjectNode apply(ObjectNode live, ObjectNode applied, String manager, boolean force, String time) {
        return FieldManagement.apply(live, applied, manager, force, time);
    }

    static ObjectNode recordUpdate(ObjectNode before, ObjectNode updated, String manager, String subresource, String time) {
        return FieldManagement.recordUpdate(before, updated, manager, subresource, time);
    }
}
