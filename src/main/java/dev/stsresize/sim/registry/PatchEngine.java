package dev.stsresize.sim.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.patch.FieldManagement;
import dev.stsresize.sim.patch.Patches;
import java.util.Iterator;
import java.util.Map;

/**
 * The one place the server calls {@link Patches} and {@link FieldManagement}. While the patch
 * branch has not landed (those throw UnsupportedOperationException), merge patch and apply fall back
 * to a plain RFC 7386 merge, and managedFields are left as they are, so the rest of the server can
 * be exercised; the fallbacks disappear by themselves once the real implementations are merged.
 */
final class PatchEngine {
    private PatchEngine() {}

    static ObjectNode patch(Patches.Type type, ObjectNode live, JsonNode patch, String apiVersion, String kind) {
        return switch (type) {
            case JSON -> Patches.jsonPatch(live, patch);
            case MERGE -> {
                try {
                    yield Patches.mergePatch(live, patch);
                } catch (UnsupportedOperationException notYet) {
                    yield fallbackMerge(live, patch);
                }
            }
            case STRATEGIC -> Patches.strategicMergePatch(live, patch, apiVersion, kind);
            case APPLY -> throw new IllegalArgumentException("apply goes through apply()");
        };
    }

    static ObjectNode apply(ObjectNode live, ObjectNode applied, String manager, boolean force, String time) {
        try {
            return FieldManagement.apply(live, applied, manager, force, time);
        } catch (UnsupportedOperationException notYet) {
            return live == null ? applied.deepCopy() : fallbackMerge(live, applied);
        }
    }

    static ObjectNode recordUpdate(ObjectNode before, ObjectNode updated, String manager, String subresource, String time) {
        try {
            return FieldManagement.recordUpdate(before, updated, manager, subresource, time);
        } catch (UnsupportedOperationException notYet) {
            return updated;
        }
    }

    /** RFC 7386, only until {@link Patches#mergePatch} lands. */
    static ObjectNode fallbackMerge(ObjectNode target, JsonNode patch) {
        ObjectNode out = target.deepCopy();
        for (Iterator<Map.Entry<String, JsonNode>> it = patch.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode v = e.getValue();
            if (v.isNull()) {
                out.remove(e.getKey());
            } else if (v.isObject() && out.get(e.getKey()) instanceof ObjectNode o) {
                out.set(e.getKey(), fallbackMerge(o, v));
            } else {
                out.set(e.getKey(), v.deepCopy());
            }
        }
        return out;
    }
}
