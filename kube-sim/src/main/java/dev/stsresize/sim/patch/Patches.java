package dev.stsresize.sim.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;

/**
 * The PATCH flavours kube-apiserver accepts, as pure functions over JSON trees. Inputs are never
 * mutated; each returns a new object. A patch that cannot apply throws {@link ApiError} with the
 * status the real server gives (422 / 400 / 500 as apimachinery does).
 *
 * <p>CONTRACT shared by two helpers: the simulated server calls exactly these signatures.
 */
public final class Patches {
    private Patches() {}

    /** The patch content types, by their Content-Type header. */
    public enum Type {
        JSON("application/json-patch+json"),
        MERGE("application/merge-patch+json"),
        STRATEGIC("application/strategic-merge-patch+json"),
        APPLY("application/apply-patch+yaml");

        public final String contentType;

        Type(String contentType) {
            this.contentType = contentType;
        }

        /** The type for a Content-Type header (parameters such as charset ignored), or null. */
        public static Type fromContentType(String header) {
            if (header == null) {
                return null;
            }
            String bare = header.split(";", 2)[0].trim();
            for (Type t : values()) {
                if (t.contentType.equalsIgnoreCase(bare)) {
                    return t;
                }
            }
            return null;
        }
    }

    /** RFC 6902 JSON patch. */
    public static ObjectNode jsonPatch(ObjectNode target, JsonNode patch) {
        return JsonPatch.apply(target, patch);
    }

    /** RFC 7386 JSON merge patch: objects merge recursively, null deletes, arrays replace. */
    public static ObjectNode mergePatch(ObjectNode target, JsonNode patch) {
        return MergePatch.apply(target, patch);
    }

    /**
     * Strategic merge patch: like merge patch, but lists with a Kubernetes merge key (containers,
     * volumes, volumeMounts, env, ports by their keys…) merge element-wise, and the {@code $patch},
     * {@code $retainKeys}, {@code $deleteFromPrimitiveList}, {@code $setElementOrder} directives
     * apply. {@code apiVersion}/{@code kind} choose the schema (e.g. "apps/v1", "StatefulSet").
     * Lists without a merge key ({@code spec.volumeClaimTemplates}) are replaced whole.
     */
    public static ObjectNode strategicMergePatch(ObjectNode target, JsonNode patch, String apiVersion, String kind) {
        return StrategicMerge.apply(target, patch, kind);
    }
}
