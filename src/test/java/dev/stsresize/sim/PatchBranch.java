package dev.stsresize.sim;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.stsresize.sim.patch.FieldManagement;
import dev.stsresize.sim.patch.Patches;

/** Whether the sim.patch implementations (another branch) have landed; tests that need them assume it. */
final class PatchBranch {
    private PatchBranch() {}

    static boolean fieldManagementLanded() {
        try {
            FieldManagement.apply(null, JsonNodeFactory.instance.objectNode(), "probe", false, "2026-01-01T00:00:00Z");
            return true;
        } catch (UnsupportedOperationException e) {
            return false;
        } catch (RuntimeException e) {
            return true;
        }
    }

    static boolean strategicMergeLanded() {
        try {
            Patches.strategicMergePatch(JsonNodeFactory.instance.objectNode(), JsonNodeFactory.instance.objectNode(), "v1", "Pod");
            return true;
        } catch (UnsupportedOperationException e) {
            return false;
        } catch (RuntimeException e) {
            return true;
        }
    }

    static final String WHY = "needs sim.patch (server-side apply field management / strategic merge) from the patch branch";
}
