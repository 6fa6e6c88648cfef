package dev.stsresize.sim.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.request.RequestInfo;
import dev.stsresize.sim.store.Catalog;
import dev.stsresize.sim.store.ResourceType;
import dev.stsresize.sim.store.Store;
import java.util.ArrayList;
import java.util.List;

/**
 * RBAC as plugin/pkg/auth/authorizer/rbac/rbac.go evaluates it (reasons as its authorizingVisitor and
 * pkg/registry/rbac/validation/rule.go's binding describers write them: ClusterRoleBindings first, then
 * the namespace's RoleBindings; a non-resource request, which has no namespace, only the
 * ClusterRoleBindings), over the Roles, RoleBindings, ClusterRoles and ClusterRoleBindings in the store.
 * system:masters may do everything (kube-apiserver's privileged-group authorizer, ahead of RBAC); what
 * every other user may do comes from the store alone, where {@link BootstrapPolicy} put the roles a real
 * server creates at start (discovery, self-reviews, version and health for everyone, anonymous too).
 */
public final class Authorizer {
    private final Store store;
    private final ResourceType roles;
    private final ResourceType roleBindings;
    private final ResourceType clusterRoles;
    private final ResourceType clusterRoleBindings;

    public Authorizer(Store store, Catalog catalog) {
        this.store = store;
        this.roles = catalog.byResource("rbac.authorization.k8s.io", "roles").orElseThrow();
        this.roleBindings = catalog.byResource("rbac.authorization.k8s.io", "rolebindings").orElseThrow();
        this.clusterRoles = catalog.byResource("rbac.authorization.k8s.io", "clusterroles").orElseThrow();
        this.clusterRoleBindings = catalog.byResource("rbac.authorization.k8s.io", "clusterrolebindings").orElseThrow();
    }

    /** allowed, and the reason the real authorizer gives ("" when denied without errors). */
    public record Decision(boolean allowed, String reason) {}

    public Decision authorize(User user, RequestInfo r) {
        if (user.isAdmin()) {
            return new Decision(true, "");
        }
        List<String> errors = new ArrayList<>();
        for (ObjectNode b : store.list(clusterRoleBindings, "")) {
            JsonNode subject = subjectFor(user, b, "");
            if (subject != null) {
                ObjectNode role = store.get(clusterRoles, "", b.path("roleRef").path("name").asText());
                if (role == null) {
                    errors.add("clusterrole.rbac.authorization.k8s.io \"" + b.path("roleRef").path("name").asText() + "\" not found");
                } else if (allows(role, r)) {
                    return new Decision(true, "RBAC: allowed by ClusterRoleBinding \"" + name(b) + "\" of ClusterRole \""
                            + name(role) + "\" to " + describe(subject, ""));
                }
            }
        }
        if (!r.namespace().isEmpty()) {
            for (ObjectNode b : store.list(roleBindings, r.namespace())) {
                JsonNode subject = subjectFor(user, b, r.namespace());
                if (subject == null) {
                    continue;
                }
                boolean cluster = "ClusterRole".equals(b.path("roleRef").path("kind").asText());
                String roleName = b.path("roleRef").path("name").asText();
                ObjectNode role = cluster ? store.get(clusterRoles, "", roleName) : store.get(roles, r.namespace(), roleName);
                if (role == null) {
                    errors.add((cluster ? "clusterrole" : "role") + ".rbac.authorization.k8s.io \"" + roleName + "\" not found");
                } else if (allows(role, r)) {
                    return new Decision(true, "RBAC: allowed by RoleBinding \"" + name(b) + "/" + r.namespace() + "\" of "
                            + (cluster ? "ClusterRole" : "Role") + " \"" + roleName + "\" to " + describe(subject, r.namespace()));
                }
            }
        }
        // rbac.go Authorize: NoOpinion, with "RBAC: " + utilerrors.NewAggregate(errors) when a binding named a missing role
        // (the aggregate drops repeated texts and brackets more than one)
        List<String> distinct = errors.stream().distinct().toList();
        String all = String.join(", ", distinct);
        return new Decision(false, distinct.isEmpty() ? "" : "RBAC: " + (distinct.size() > 1 ? "[" + all + "]" : all));
    }

    /** The real 403 for a denied request (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go). */
    public static ApiError forbidden(User user, RequestInfo r, String reason) {
        String msg;
        if (!r.resourceRequest()) {
            msg = "User \"" + user.name() + "\" cannot " + r.verb() + " path \"" + r.path() + "\"";
        } else if (!r.namespace().isEmpty()) {
            msg = "User \"" + user.name() + "\" cannot " + r.verb() + " resource \"" + r.resourceAndSub() + "\" in API group \""
                    + r.group() + "\" in the namespace \"" + r.namespace() + "\"";
        } else {
            msg = "User \"" + user.name() + "\" cannot " + r.verb() + " resource \"" + r.resourceAndSub() + "\" in API group \""
                    + r.group() + "\" at the cluster scope";
        }
        if (!reason.isEmpty()) {
            msg += ": " + reason;
        }
        if (!r.resourceRequest()) {
            // NewForbidden with an empty GroupResource: "forbidden: …" and empty (but present) details
            return ApiError.of(403, "Forbidden", "forbidden: " + msg, com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode());
        }
        return ApiError.forbidden(r.group(), r.resource(), r.name(), msg);
    }

    /**
     * rule.go appliesTo / appliesToUser: the binding's first subject that names this user (a User by name, a
     * Group by membership, a ServiceAccount by its user name), or null. The rules review asks the same question.
     */
    static JsonNode subjectFor(User user, ObjectNode binding, String bindingNamespace) {
        for (JsonNode s : binding.path("subjects")) {
            String kind = s.path("kind").asText();
            String name = s.path("name").asText();
            boolean applies = switch (kind) {
                case "User" -> name.equals(user.name());
                case "Group" -> user.groups().contains(name);
                case "ServiceAccount" -> {
                    String ns = s.path("namespace").asText("");
                    yield ("system:serviceaccount:" + (ns.isEmpty() ? bindingNamespace : ns) + ":" + name).equals(user.name());
                }
                default -> false;
            };
            if (applies) {
                return s;
            }
        }
        return null;
    }

    private static String describe(JsonNode subject, String bindingNamespace) {
        String kind = subject.path("kind").asText();
        String name = subject.path("name").asText();
        if (kind.equals("ServiceAccount")) {
            String ns = subject.path("namespace").asText("");
            return "ServiceAccount \"" + name + "/" + (ns.isEmpty() ? bindingNamespace : ns) + "\"";
        }
        return kind + " \"" + name + "\"";
    }

    /** rbac/v1 RuleAllows: a resource request by verb, group, resource and name; any other by verb and URL. */
    private static boolean allows(ObjectNode role, RequestInfo r) {
        for (JsonNode rule : role.path("rules")) {
            if (!has(rule.path("verbs"), r.verb())) {
                continue;
            }
            boolean allowed = r.resourceRequest()
                    ? has(rule.path("apiGroups"), r.group()) && resourceMatches(rule.path("resources"), r)
                            && nameMatches(rule.path("resourceNames"), r.name())
                    : urlMatches(rule.path("nonResourceURLs"), r.path());
            if (allowed) {
                return true;
            }
        }
        return false;
    }

    /** rbac/v1 NonResourceURLMatches: "*", the exact path, or a prefix ending in "*". */
    private static boolean urlMatches(JsonNode urls, String path) {
        for (JsonNode v : urls) {
            String rule = v.asText();
            if (rule.equals("*") || rule.equals(path)
                    || (rule.endsWith("*") && path.startsWith(rule.replaceAll("\\*+$", "")))) {
                return true;
            }
        }
        return false;
    }

    private static boolean has(JsonNode list, String value) {
        for (JsonNode v : list) {
            if (v.asText().equals("*") || v.asText().equals(value)) {
                return true;
            }
        }
        return false;
    }

    /** rbac/v1 ResourceMatches: "*", the exact "resource[/sub]", or "*&#47;sub". */
    private static boolean resourceMatches(JsonNode resources, RequestInfo r) {
        for (JsonNode v : resources) {
            String rule = v.asText();
            if (rule.equals("*") || rule.equals(r.resourceAndSub())
                    || (!r.subresource().isEmpty() && rule.equals("*/" + r.subresource()))) {
                return true;
            }
        }
        return false;
    }

    private static boolean nameMatches(JsonNode names, String name) {
        if (names.isEmpty()) {
            return true;
        }
        for (JsonNode n : names) {
            if (n.asText().equals(name)) {
                return true;
            }
        }
        return false;
    }

    private static String name(ObjectNode o) {
        return o.path("metadata").path("name").asText();
    }
}
