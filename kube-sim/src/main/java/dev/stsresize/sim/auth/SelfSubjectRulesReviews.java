package dev.stsresize.sim.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.store.Catalog;
import dev.stsresize.sim.store.ResourceType;
import dev.stsresize.sim.store.Store;
import java.util.ArrayList;
import java.util.List;

/**
 * authorization.k8s.io/v1 SelfSubjectRulesReview, what {@code kubectl auth can-i --list} asks: every
 * rule the requesting user holds in one namespace.
 *
 * <p>As pkg/registry/authorization/selfsubjectrulesreview/rest.go answers it: a review without
 * {@code spec.namespace} is a 400 "no namespace on request"; otherwise a new review (empty spec) with the rule resolver's rules, split
 * into resource rules (rules with resources) and non-resource rules (rules with nonResourceURLs), with
 * {@code incomplete} and {@code evaluationError} from the resolver. The resolver is RBAC's only:
 * plugin/pkg/auth/authorizer/rbac/rbac.go {@code RulesFor} returns the rules of
 * pkg/registry/rbac/validation/rule.go {@code DefaultRuleResolver.RulesFor} (every ClusterRoleBinding
 * that applies to the user, then the namespace's RoleBindings, each role's rules in order) with
 * {@code incomplete} false, and the aggregated errors of roles that could not be found as the
 * evaluation error. system:masters gets its rules from the cluster-admin ClusterRoleBinding, as on a
 * real server (the privileged-group authorizer resolves no rules). A webhook or the Node authorizer
 * would set {@code incomplete}; this server runs neither.
 */
public final class SelfSubjectRulesReviews {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private final Store store;
    private final ResourceType roles;
    private final ResourceType roleBindings;
    private final ResourceType clusterRoles;
    private final ResourceType clusterRoleBindings;

    public SelfSubjectRulesReviews(Store store, Catalog catalog) {
        this.store = store;
        this.roles = catalog.byResource("rbac.authorization.k8s.io", "roles").orElseThrow();
        this.roleBindings = catalog.byResource("rbac.authorization.k8s.io", "rolebindings").orElseThrow();
        this.clusterRoles = catalog.byResource("rbac.authorization.k8s.io", "clusterroles").orElseThrow();
        this.clusterRoleBindings = catalog.byResource("rbac.authorization.k8s.io", "clusterrolebindings").orElseThrow();
    }

    /** The answered review, or a 400 without a namespace. */
    public ObjectNode answer(User user, ObjectNode review) {
        String namespace = review.path("spec").path("namespace").asText("");
        if (namespace.isEmpty()) {
            throw ApiError.of(400, "BadRequest", "no namespace on request", null);
        }
        List<JsonNode> rules = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        for (ObjectNode b : store.list(clusterRoleBindings, "")) {
            if (Authorizer.subjectFor(user, b, "") != null) {
                rulesOf(b, "", rules, errors);
            }
        }
        for (ObjectNode b : store.list(roleBindings, namespace)) {
            if (Authorizer.subjectFor(user, b, namespace) != null) {
                rulesOf(b, namespace, rules, errors);
            }
        }
        ObjectNode out = JSON.objectNode();
        out.put("kind", "SelfSubjectRulesReview");
        out.put("apiVersion", "authorization.k8s.io/v1");
        out.putObject("metadata").putNull("creationTimestamp");
        // rest.go returns a new object with only its status set: the spec comes back empty
        out.putObject("spec");
        ObjectNode status = out.putObject("status");
        ArrayNode resourceRules = status.putArray("resourceRules");
        ArrayNode nonResourceRules = status.putArray("nonResourceRules");
        for (JsonNode rule : rules) {
            // rbac.go RulesFor: a rule with both resources and nonResourceURLs is listed in both lists
            if (!rule.path("resources").isEmpty()) {
                ObjectNode r = resourceRules.addObject();
                r.set("verbs", strings(rule.path("verbs")));
                copyIfNotEmpty(rule, r, "apiGroups");
                copyIfNotEmpty(rule, r, "resources");
                copyIfNotEmpty(rule, r, "resourceNames");
            }
            if (!rule.path("nonResourceURLs").isEmpty()) {
                ObjectNode r = nonResourceRules.addObject();
                r.set("verbs", strings(rule.path("verbs")));
                copyIfNotEmpty(rule, r, "nonResourceURLs");
            }
        }
        status.put("incomplete", false);
        if (!errors.isEmpty()) {
            // utilerrors.NewAggregate: one error as itself, more in brackets
            List<String> distinct = errors.stream().distinct().toList();
            String all = String.join(", ", distinct);
            status.put("evaluationError", distinct.size() > 1 ? "[" + all + "]" : all);
        }
        return out;
    }

    /** rule.go GetRoleReferenceRules: the referenced role's rules, or an error when it is missing. */
    private void rulesOf(ObjectNode binding, String namespace, List<JsonNode> rules, List<String> errors) {
        JsonNode ref = binding.path("roleRef");
        String name = ref.path("name").asText();
        boolean cluster = "ClusterRole".equals(ref.path("kind").asText());
        ObjectNode role = cluster ? store.get(clusterRoles, "", name) : store.get(roles, namespace, name);
        if (role == null) {
            errors.add((cluster ? "clusterrole" : "role") + ".rbac.authorization.k8s.io \"" + name + "\" not found");
            return;
        }
        role.path("rules").forEach(rules::add);
    }

    private static ArrayNode strings(JsonNode list) {
        ArrayNode out = JSON.arrayNode();
        list.forEach(v -> out.add(v.asText()));
        return out;
    }

    /** The Go types' {@code omitempty}: an empty list is left out. */
    private static void copyIfNotEmpty(JsonNode from, ObjectNode to, String field) {
        if (!from.path(field).isEmpty()) {
            to.set(field, strings(from.path(field)));
        }
    }
}
