package dev.stsresize.sim.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.store.Catalog;
import dev.stsresize.sim.store.ResourceType;
import java.util.List;
import java.util.Optional;

/**
 * {@code /openapi/v3} and {@code /openapi/v2} (staging/src/k8s.io/kube-openapi, served by the apiserver's
 * OpenAPI handlers): the v3 root listing each group version, per group version its resource paths with
 * their operations, {@code x-kubernetes-group-version-kind} and the query parameters kubectl looks
 * for to use server-side field validation (dryRun, fieldManager, fieldValidation, force), and the
 * schemas of its kinds ({@link ModelSchemas}) for {@code kubectl explain} and kubectl's three-way
 * patch; v2 holds every path and definition in one Swagger 2.0 document, as JSON or, as kubectl asks for
 * it to validate a {@code kind: List}, gnostic's protobuf ({@link OpenApiV2Proto}). Built lazily and kept:
 * start-up builds none of it.
 */
final class OpenApi {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private final Catalog catalog;
    private volatile ModelSchemas schemas;
    private final java.util.Map<String, ObjectNode> documents = new java.util.concurrent.ConcurrentHashMap<>();

    OpenApi(Catalog catalog) {
        this.catalog = catalog;
    }

    private ModelSchemas schemas() {
        ModelSchemas s = schemas;
        if (s == null) {
            synchronized (this) {
                if (schemas == null) {
                    schemas = new ModelSchemas(catalog);
                }
                s = schemas;
            }
        }
        return s;
    }

    private volatile byte[] v2Proto;

    /** {@link #v2()} as gnostic's openapi_v2.Document in protobuf (kube-openapi's ToProtoBinary). */
    byte[] v2Proto() {
        byte[] b = v2Proto;
        if (b == null) {
            b = OpenApiV2Proto.document(v2());
            v2Proto = b;
        }
        return b;
    }

    /** The Swagger 2.0 document: every path, every definition. */
    ObjectNode v2() {
        return documents.computeIfAbsent("v2", k -> {
            ObjectNode doc = JSON.objectNode();
            doc.put("swagger", "2.0");
            doc.putObject("info").put("title", "Kubernetes").put("version", "v1.32.13");
            ObjectNode paths = doc.putObject("paths");
            for (ResourceType t : catalog.all()) {
                paths(t, paths, ModelSchemas.Flavour.V2);
            }
            doc.set("definitions", schemas().allDefinitions(ModelSchemas.Flavour.V2));
            return doc;
        });
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
        return Optional.of(documents.computeIfAbsent(groupVersionPath, k -> {
            ObjectNode doc = JSON.objectNode();
            doc.put("openapi", "3.0.0");
            doc.putObject("info").put("title", "Kubernetes").put("version", "v1.32.13");
            ObjectNode paths = doc.putObject("paths");
            for (ResourceType t : types) {
                paths(t, paths, ModelSchemas.Flavour.V3);
            }
            doc.putObject("components").set("schemas", schemas().definitions(types, ModelSchemas.Flavour.V3));
            return doc;
        }));
    }

    private void paths(ResourceType t, ObjectNode paths, ModelSchemas.Flavour f) {
        String base = t.pathPrefix() + (t.namespaced() ? "/namespaces/{namespace}/" : "/") + t.resource();
        ObjectNode collection = paths.putObject(base);
        if (t.verbs().contains("list")) {
            collection.set("get", operation(t, "list", false));
        }
        collection.set("post", withBody(operation(t, "create", false), t, f));
        if (t.verbs().contains("get")) {
            ObjectNode item = paths.putObject(base + "/{name}");
            item.set("get", operation(t, "read", false));
            item.set("put", withBody(operation(t, "replace", false), t, f));
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

    /** The body schema of a create or replace, which kubectl's validation of a GVK looks up. */
    private ObjectNode withBody(ObjectNode op, ResourceType t, ModelSchemas.Flavour f) {
        schemas().definitionOf(t).ifPresent(def -> {
            ObjectNode ref = JSON.objectNode().put("$ref", f.refPrefix + def);
            if (f == ModelSchemas.Flavour.V3) {
                op.putObject("requestBody").putObject("content").putObject("*/*").set("schema", ref);
            } else {
                ObjectNode body = ((ArrayNode) op.get("parameters")).insertObject(0);
                body.put("name", "body").put("in", "body").put("required", true).set("schema", ref);
            }
        });
        return op;
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
