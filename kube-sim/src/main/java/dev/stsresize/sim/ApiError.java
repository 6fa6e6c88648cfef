package dev.stsresize.sim;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * An error the simulated API server answers with: an HTTP code and a {@code metav1.Status} body,
 * shaped exactly as kube-apiserver v1.32 shapes it (see docs/reference/real-apiserver-v1.32.md).
 *
 * <p>Texts follow k8s.io/apimachinery/pkg/api/errors (NewNotFound, NewAlreadyExists, NewConflict,
 * NewInvalid, NewForbidden). Thrown anywhere below the HTTP layer; the server writes {@link #status()}.
 */
public final class ApiError extends RuntimeException {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final int code;
    private final ObjectNode status;

    private ApiError(int code, ObjectNode status) {
        super(status.path("message").asText());
        this.code = code;
        this.status = status;
    }

    public int code() {
        return code;
    }

    /** The Status body, a fresh copy each call. */
    public ObjectNode status() {
        return status.deepCopy();
    }

    /** Builds any Status; {@code details} may be null. */
    public static ApiError of(int code, String reason, String message, ObjectNode details) {
        ObjectNode s = JSON.objectNode();
        s.put("kind", "Status");
        s.put("apiVersion", "v1");
        s.putObject("metadata");
        s.put("status", "Failure");
        s.put("message", message);
        if (reason != null && !reason.isEmpty()) {
            s.put("reason", reason);
        }
        if (details != null) {
            s.set("details", details);
        }
        s.put("code", code);
        return new ApiError(code, s);
    }

    /** "group.resource" as apimachinery's GroupResource.String() prints it ("statefulsets.apps", "persistentvolumeclaims"). */
    public static String groupResource(String group, String resource) {
        return group == null || group.isEmpty() ? resource : resource + "." + group;
    }

    private static ObjectNode details(String name, String group, String kind) {
        ObjectNode d = JSON.objectNode();
        if (name != null && !name.isEmpty()) {
            d.put("name", name);
        }
        if (group != null && !group.isEmpty()) {
            d.put("group", group);
        }
        if (kind != null && !kind.isEmpty()) {
            d.put("kind", kind);
        }
        return d;
    }

    /** 404: {@code statefulsets.apps "db" not found}; details.kind is the resource (plural), as the real server sends. */
    public static ApiError notFound(String group, String resource, String name) {
        return of(404, "NotFound", groupResource(group, resource) + " \"" + name + "\" not found",
                details(name, group, resource));
    }

    /** 409: {@code statefulsets.apps "db" already exists}. */
    public static ApiError alreadyExists(String group, String resource, String name) {
        return of(409, "AlreadyExists", groupResource(group, resource) + " \"" + name + "\" already exists",
                details(name, group, resource));
    }

    /**
     * 409 Conflict: {@code Operation cannot be fulfilled on <qualifiedKind> "<name>": <why>}, where the
     * qualified kind is what the server's store names it (e.g. {@code StatefulSet.apps},
     * {@code persistentvolumeclaims}).
     */
    public static ApiError conflict(String qualifiedKind, String group, String resource, String name, String why) {
        return of(409, "Conflict", "Operation cannot be fulfilled on " + qualifiedKind + " \"" + name + "\": " + why,
                details(name, group, resource));
    }

    /** One cause of an Invalid (422) status. */
    public record Cause(String reason, String message, String field) {}

    /**
     * 422: {@code <Kind>[.group] "<name>" is invalid: <field>: <message>[, <field>: <message>]} with
     * causes; apimachinery's NewInvalid, where kind is the Kind ("StatefulSet") qualified by group.
     */
    public static ApiError invalid(String group, String kind, String name, java.util.List<Cause> causes) {
        String qualified = group == null || group.isEmpty() ? kind : kind + "." + group;
        ArrayNode cs = JSON.arrayNode();
        // errs.ToAggregate().Error() (apimachinery/pkg/util/errors): distinct texts, bracketed when more than one
        java.util.LinkedHashSet<String> texts = new java.util.LinkedHashSet<>();
        for (Cause c : causes) {
            texts.add(c.field() + ": " + c.message());
            ObjectNode cause = cs.addObject();
            cause.put("reason", c.reason());
            cause.put("message", c.message());
            cause.put("field", c.field());
        }
        String all = String.join(", ", texts);
        String msg = qualified + " \"" + name + "\" is invalid: " + (texts.size() > 1 ? "[" + all + "]" : all);
        ObjectNode d = details(name, group, kind);
        d.set("causes", cs);
        return of(422, "Invalid", msg, d);
    }

    /** 403: {@code <resource>[.group] "<name>" is forbidden: <why>}; details.kind is the resource. */
    public static ApiError forbidden(String group, String resource, String name, String why) {
        String target = groupResource(group, resource) + (name == null || name.isEmpty() ? "" : " \"" + name + "\"");
        return of(403, "Forbidden", target + " is forbidden: " + why, details(name, group, resource));
    }
}
