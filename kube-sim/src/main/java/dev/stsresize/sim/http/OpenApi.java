package dev.stsresize.sim.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.store.Catalog;
import dev.stsresize.sim.store.ResourceType;
import java.util.List;
import java.util.Optional;

/**
 * A minimal {@code /openapi/v3}: the root listing each group version, and per group version the
 * resource paths with their operations, {@code x-kubernetes-group-version-kind} and the query
 * parameters kubectl looks for (dryRun, fieldManager, fieldValidation, force). The reference found
 * this enough for {@code kubectl apply}, server-side and client-side; no schemas are served.
 */
final class OpenApi {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private final Catalog catalog;

    OpenApi(Catalog catalog) {
        this.catalog = catalog;
    }

    ObjectNode root() {
        ObjectNode root = JSON.objectNode();
        ObjectNode paths = root.putObject("paths");
        paths.putObject("api/v1").put("serverRelativeURL", "/openapi/v3/api/v1?hash=" + hash(""));
        for (String g : catalog.groups()) {
            paths.putObject("apis/" + g + "/v1").put("serverRelativeURL", "/openapi/v3/apis/" + g + "/v1?hash=" + hash(g));
        }
        return root;
    }

    /** The document of "api/v1" or "apis/GROUP/v1". */
    Optional<ObjectNode> document(String groupVersionPath) {
        String group;
        if (groupVersionPath.equals("api/v1")) {
            group = "";
        } else if (groupVersionPath.startsWith("apis/") && groupVersionPath.endsWith("/v1")) {
            group = groupVersionPath.substring(5, groupVersionPath.length() - 3);
        } else {
            return Optional.empty();
        }
        List<ResourceType> types = catalog.inGroup(group);
        if (types.isEmpty()) {
            return Optional.empty();
        }
        ObjectNode doc = JSON.objectNode();
        doc.put("openapi", "3.0.0");
        doc.putObject("info").put("title", "Kubernetes").put("version", "v1.32.13");
        ObjectNode paths = doc.putObject("paths");
        for (ResourceType t : types) {
            String base = t.pathPrefix() + (t.namespaced() ? "/namespaces/{namespace}/" : "/") + t.resource();
            ObjectNode collection = paths.putObject(base);
            if (t.verbs().contains("list")) {
                collection.set("get", operation(t, "list", false));
            }
            collection.set("post", operation(t, "create", false));
            if (t.verbs().contains("get")) {
                ObjectNode item = paths.putObject(base + "/{name}");
                item.set("get", operation(t, "read", false));
                item.set("put", operation(t, "replace", false));
                item.set("patch", operation(t, "patch", true));
                item.set("delete", operation(t, "delete", false));
                for (String sub : t.subresources()) {
                    ObjectNode s = paths.putObject(base + "/{name}/" + sub);
                    s.set("get", operation(t, "read", false));
                    s.set("put", operation(t, "replace", false));
                    s.set("patch", operation(t, "patch", true));
                }
            }
        }
        doc.putObject("components").putObject("schemas");
        return Optional.of(doc);
    }

    private static ObjectNode operation(ResourceType t, String action, boolean patch) {
        ObjectNode op = JSON.objectNode();
        op.put("operationId", action + t.kind());
        op.put("x-kubernetes-action", action.equals("read") ? "get" : action.equals("replace") ? "put" : action);
        ObjectNode gvk = op.putObject("x-kubernetes-group-version-kind");
        gvk.put("group", t.group());
        gvk.put("version", t.version());
        gvk.put("kind", t.kind());
        ArrayNode params = op.putArray("parameters");
        if (!action.equals("read") && !action.equals("list")) {
            param(params, "dryRun");
            if (!action.equals("delete")) {
                param(params, "fieldManager");
                param(params, "fieldValidation");
            }
            if (patch) {
                ObjectNode force = params.addObject();
                force.put("name", "force");
                force.put("in", "query");
                force.putObject("schema").put("type", "boolean").put("uniqueItems", true);
            }
        }
        op.putObject("responses").putObject("200").put("description", "OK");
        return op;
    }

    private static void param(ArrayNode params, String name) {
        ObjectNode p = params.addObject();
        p.put("name", name);
        p.put("in", "query");
        p.putObject("schema").put("type", "string").put("uniqueItems", true);
    }

    private static String hash(String group) {
        return String.format("%016X", (long) ("sim/" + group).hashCode() & 0xffffffffL);
    }
}
