package dev.stsresize.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stsresize.cluster.fake.FakeApiServer.Recorded;

/**
 * The rules every request the product sends keeps, one request at a time, read as the server reads it: the
 * request logs of {@link DeleteInvariantTest} (every method of the port) and of {@code converge.SafetyInvariant}
 * (every converge test) are both checked here.
 * <ul>
 * <li>no DELETE of a PersistentVolume, ever;
 * <li>a DELETE of a claim (a copy's source or its destination, the run's temporary claim), of a copy pod
 * ({@code stsresize-copy-…}) or of a run's record Secret ({@code stsresize-…}) carries a UID precondition; a DELETE of a StatefulSet carries {@code propagationPolicy: Orphan} and a UID
 * precondition; nothing else is deleted;
 * <li>no PATCH of a PersistentVolume removes its claimRef (an Available PV without one is taken by any claim).
 * </ul>
 */
public final class RequestLogRules {
    private RequestLogRules() {}

    /** What is wrong with this request, or null. */
    public static String violation(Recorded r) {
        return violation(r.method(), r.path(), r.body());
    }

    /** What is wrong with a request of this method, path and body, or null. */
    public static String violation(String method, String path, String body) {
        if (method.equals("PATCH") && path.matches(".*/persistentvolumes/[^/]+")) {
            return removesClaimRef(body) ? "PATCH " + path + " removes the PV's claimRef (re-point it instead): " + body : null;
        }
        if (!method.equals("DELETE")) {
            return null;
        }
        if (path.matches(".*/persistentvolumes(/.*)?")) {
            return "DELETE of a PersistentVolume " + path + ": the plugin never deletes one";
        }
        JsonNode options = options(body);
        if (options == null) {
            return "DELETE " + path + " with an unreadable body: " + body;
        }
        boolean uid = !options.path("preconditions").path("uid").asText("").isEmpty();
        if (path.matches(".*/statefulsets/[^/]+")) {
            if (!"Orphan".equals(options.path("propagationPolicy").asText())) {
                return "DELETE " + path + " without propagationPolicy Orphan: " + body;
            }
            return uid ? null : "DELETE " + path + " without a UID precondition: " + body;
        }
        if (path.matches(".*/persistentvolumeclaims/[^/]+") || path.matches(".*/pods/" + CopyPodLog.NAME_PREFIX + "[^/]+")
                || path.matches("/api/v1/namespaces/[^/]+/secrets/stsresize-[^/]+")) {
            return uid ? null : "DELETE " + path + " without a UID precondition: " + body;
        }
        return "DELETE of " + path;
    }

    /** Whether a PATCH body (merge, strategic merge or JSON patch) removes {@code spec.claimRef}; an unreadable one counts. */
    public static boolean removesClaimRef(String body) {
        JsonNode patch;
        try {
            patch = TreeMapper.MAPPER.readTree(body == null ? "" : body);
        } catch (java.io.IOException e) {
            return true;
        }
        if (patch == null) {
            return true;
        }
        if (patch.isArray()) {
            for (JsonNode op : patch) {
                String target = op.path("path").asText();
                boolean claimRefOrAbove = target.equals("/spec/claimRef") || target.equals("/spec");
                if (claimRefOrAbove && (op.path("op").asText().equals("remove") || op.path("value").isNull()
                        || (target.equals("/spec") && !op.path("value").has("claimRef")))) {
                    return true;
                }
            }
            return false;
        }
        JsonNode spec = patch.path("spec");
        return spec.isNull() || (spec.has("claimRef") && spec.get("claimRef").isNull())
                || (spec.path("claimRef").isObject() && spec.path("claimRef").has("$patch"));
    }

    private static JsonNode options(String body) {
        if (body == null || body.isBlank()) {
            return TreeMapper.MAPPER.createObjectNode();
        }
        try {
            JsonNode tree = TreeMapper.MAPPER.readTree(body);
            return tree == null || !tree.isObject() ? null : tree;
        } catch (java.io.IOException e) {
            return null;
        }
    }
}
