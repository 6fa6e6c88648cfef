package dev.stsresize.sim.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The ClusterRoles and ClusterRoleBindings kube-apiserver v1.32 creates at start (its RBAC post-start
 * hook, pkg/registry/rbac/rest/storage_rbac.go, from plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go
 * ClusterRoles and ClusterRoleBindings), so that tests and {@code simulate} bind {@code admin},
 * {@code edit} or {@code view} in a namespace as clusters do. Those the simulator's users meet, not the
 * controllers' and nodes' own ({@code system:controller:*}, {@code system:node}, …): cluster-admin (bound
 * to system:masters), system:discovery, system:basic-user and system:public-info-viewer (bound to every
 * user), system:service-account-issuer-discovery (every ServiceAccount), and the user-facing admin, edit
 * and view with the system:aggregate-to-* roles they are aggregated from.
 *
 * <p>On a real cluster admin, edit and view are created with an aggregationRule and no rules, and the
 * clusterrole-aggregation controller fills them; here they are served already filled, as that controller
 * leaves them ({@link #aggregate}). Every object carries the bootstrap label and the autoupdate
 * annotation (policy.go addDefaultMetadata), and each rule's lists are sorted as rbacv1helpers'
 * PolicyRuleBuilder.Rule sorts them.
 */
public final class BootstrapPolicy {
    /** policy.go's Label: the mark of an object the server itself keeps. */
    public static final String LABEL = "kubernetes.io/bootstrapping";
    public static final String LABEL_VALUE = "rbac-defaults";

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final String RBAC = "rbac.authorization.k8s.io";
    private static final String TO_ADMIN = "rbac.authorization.k8s.io/aggregate-to-admin";
    private static final String TO_EDIT = "rbac.authorization.k8s.io/aggregate-to-edit";
    private static final String TO_VIEW = "rbac.authorization.k8s.io/aggregate-to-view";

    private static final String[] WRITE = {"create", "update", "patch", "delete", "deletecollection"};
    private static final String[] READ_WRITE = {"get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"};
    private static final String[] READ = {"get", "list", "watch"};

    private BootstrapPolicy() {}

    /** Every ClusterRole (aggregated ones filled), then every ClusterRoleBinding, as the server stores them. */
    public static List<ObjectNode> objects() {
        List<ObjectNode> out = new ArrayList<>(aggregate(clusterRoles()));
        out.addAll(clusterRoleBindings());
        return out;
    }

    /** Whether a stored object is one of these, as the server labels them. */
    public static boolean isBootstrap(JsonNode object) {
        return LABEL_VALUE.equals(object.path("metadata").path("labels").path(LABEL).asText(null));
    }

    static List<ObjectNode> clusterRoles() {
        List<ObjectNode> roles = new ArrayList<>();
        roles.add(role("cluster-admin", Map.of(),
                rule(new String[] {"*"}, groups("*"), resources("*")),
                urls(new String[] {"*"}, "*")));
        roles.add(role("system:discovery", Map.of(),
                urls(new String[] {"get"}, "/livez", "/readyz", "/healthz", "/version", "/version/", "/openapi", "/openapi/*",
                        "/api", "/api/*", "/apis", "/apis/*")));
        roles.add(role("system:basic-user", Map.of(),
                rule(new String[] {"create"}, groups("authorization.k8s.io"), resources("selfsubjectaccessreviews", "selfsubjectrulesreviews")),
                rule(new String[] {"create"}, groups("authentication.k8s.io"), resources("selfsubjectreviews"))));
        roles.add(role("system:public-info-viewer", Map.of(),
                urls(new String[] {"get"}, "/livez", "/readyz", "/healthz", "/version", "/version/")));
        roles.add(aggregated("admin", Map.of(), TO_ADMIN));
        roles.add(aggregated("edit", Map.of(TO_ADMIN, "true"), TO_EDIT));
        roles.add(aggregated("view", Map.of(TO_EDIT, "true"), TO_VIEW));
        roles.add(role("system:aggregate-to-admin", Map.of(TO_ADMIN, "true"),
                rule(new String[] {"create"}, groups("authorization.k8s.io"), resources("localsubjectaccessreviews")),
                rule(READ_WRITE, groups(RBAC), resources("roles", "rolebindings"))));
        roles.add(role("system:aggregate-to-edit", Map.of(TO_EDIT, "true"),
                // read on escalating resources
                rule(READ, groups(""), resources("pods/attach", "pods/proxy", "pods/exec", "pods/portforward", "secrets", "services/proxy")),
                rule(new String[] {"impersonate"}, groups(""), resources("serviceaccounts")),
                rule(WRITE, groups(""), resources("pods", "pods/attach", "pods/proxy", "pods/exec", "pods/portforward")),
                rule(new String[] {"create"}, groups(""), resources("pods/eviction")),
                // core "events" only: events.k8s.io is not granted, so a namespace editor cannot create events.k8s.io Events
                rule(WRITE, groups(""), resources("replicationcontrollers", "replicationcontrollers/scale", "serviceaccounts",
                        "services", "services/proxy", "persistentvolumeclaims", "configmaps", "secrets", "events")),
                rule(new String[] {"create"}, groups(""), resources("serviceaccounts/token")),
                rule(WRITE, groups("apps"), resources("statefulsets", "statefulsets/scale", "daemonsets", "deployments",
                        "deployments/scale", "deployments/rollback", "replicasets", "replicasets/scale")),
                rule(WRITE, groups("autoscaling"), resources("horizontalpodautoscalers")),
                rule(WRITE, groups("batch"), resources("jobs", "cronjobs")),
                rule(WRITE, groups("extensions"), resources("daemonsets", "deployments", "deployments/scale", "deployments/rollback",
                        "ingresses", "replicasets", "replicasets/scale", "replicationcontrollers/scale", "networkpolicies")),
                rule(WRITE, groups("policy"), resources("poddisruptionbudgets")),
                rule(WRITE, groups("networking.k8s.io"), resources("networkpolicies", "ingresses")),
                rule(READ_WRITE, groups("coordination.k8s.io"), resources("leases"))));
        roles.add(role("system:aggregate-to-view", Map.of(TO_VIEW, "true"),
                rule(READ, groups(""), resources("pods", "replicationcontrollers", "replicationcontrollers/scale", "serviceaccounts",
                        "services", "services/status", "endpoints", "persistentvolumeclaims", "persistentvolumeclaims/status", "configmaps")),
                rule(READ, groups(""), resources("limitranges", "resourcequotas", "bindings", "events", "pods/status",
                        "resourcequotas/status", "namespaces/status", "replicationcontrollers/status", "pods/log")),
                // read access to namespaces at the namespace scope: this namespace
                rule(READ, groups(""), resources("namespaces")),
                rule(READ, groups("discovery.k8s.io"), resources("endpointslices")),
                rule(READ, groups("apps"), resources("controllerrevisions", "statefulsets", "statefulsets/status", "statefulsets/scale",
                        "daemonsets", "daemonsets/status", "deployments", "deployments/status", "deployments/scale", "replicasets",
                        "replicasets/status", "replicasets/scale")),
                rule(READ, groups("autoscaling"), resources("horizontalpodautoscalers", "horizontalpodautoscalers/status")),
                rule(READ, groups("batch"), resources("jobs", "cronjobs", "cronjobs/status", "jobs/status")),
                rule(READ, groups("extensions"), resources("daemonsets", "daemonsets/status", "deployments", "deployments/scale",
                        "deployments/status", "ingresses", "ingresses/status", "replicasets", "replicasets/scale", "replicasets/status",
                        "replicationcontrollers/scale", "networkpolicies")),
                rule(READ, groups("policy"), resources("poddisruptionbudgets", "poddisruptionbudgets/status")),
                rule(READ, groups("networking.k8s.io"), resources("networkpolicies", "ingresses", "ingresses/status"))));
        roles.add(role("system:service-account-issuer-discovery", Map.of(),
                urls(new String[] {"get"}, "/.well-known/openid-configuration", "/openid/v1/jwks")));
        return roles;
    }

    static List<ObjectNode> clusterRoleBindings() {
        return List.of(
                binding("cluster-admin", "system:masters"),
                binding("system:discovery", Identities.AUTHENTICATED),
                binding("system:basic-user", Identities.AUTHENTICATED),
                binding("system:public-info-viewer", Identities.AUTHENTICATED, Identities.UNAUTHENTICATED),
                binding("system:service-account-issuer-discovery", "system:serviceaccounts"));
    }

    /**
     * Fills each aggregated role's rules as pkg/controller/clusterroleaggregation's syncClusterRole does:
     * for each selector, the matching roles by name (itself skipped), their rules appended unless an
     * equal one is there already. Repeated until nothing changes, as the controller's resyncs converge
     * (edit is aggregated into admin, view into edit).
     */
    static List<ObjectNode> aggregate(List<ObjectNode> roles) {
        List<ObjectNode> sorted = new ArrayList<>(roles);
        sorted.sort(Comparator.comparing(r -> r.path("metadata").path("name").asText()));
        boolean changed = true;
        while (changed) {
            changed = false;
            for (ObjectNode role : roles) {
                if (!role.has("aggregationRule")) {
                    continue;
                }
                ArrayNode rules = JSON.arrayNode();
                for (JsonNode selector : role.path("aggregationRule").path("clusterRoleSelectors")) {
                    for (ObjectNode other : sorted) {
                        if (other == role || !matches(selector.path("matchLabels"), other)) {
                            continue;
                        }
                        for (JsonNode r : other.path("rules")) {
                            if (!contains(rules, r)) {
                                rules.add(r.deepCopy());
                            }
                        }
                    }
                }
                if (!rules.equals(role.path("rules"))) {
                    role.set("rules", rules);
                    changed = true;
                }
            }
        }
        return roles;
    }

    private static boolean matches(JsonNode matchLabels, ObjectNode role) {
        JsonNode labels = role.path("metadata").path("labels");
        for (var e : matchLabels.properties()) {
            if (!e.getValue().asText().equals(labels.path(e.getKey()).asText(null))) {
                return false;
            }
        }
        return true;
    }

    private static boolean contains(ArrayNode rules, JsonNode rule) {
        for (JsonNode r : rules) {
            if (r.equals(rule)) {
                return true;
            }
        }
        return false;
    }

    private static ObjectNode role(String name, Map<String, String> labels, ObjectNode... rules) {
        ObjectNode role = object("ClusterRole", name, labels);
        ArrayNode list = role.putArray("rules");
        Arrays.stream(rules).forEach(list::add);
        return role;
    }

    private static ObjectNode aggregated(String name, Map<String, String> labels, String selectorLabel) {
        ObjectNode role = object("ClusterRole", name, labels);
        role.putObject("aggregationRule").putArray("clusterRoleSelectors").addObject().putObject("matchLabels").put(selectorLabel, "true");
        role.putArray("rules");
        return role;
    }

    private static ObjectNode binding(String role, String... groups) {
        ObjectNode b = object("ClusterRoleBinding", role, Map.of());
        b.putObject("roleRef").put("apiGroup", RBAC).put("kind", "ClusterRole").put("name", role);
        ArrayNode subjects = b.putArray("subjects");
        for (String g : groups) {
            subjects.addObject().put("kind", "Group").put("apiGroup", RBAC).put("name", g);
        }
        return b;
    }

    private static ObjectNode object(String kind, String name, Map<String, String> labels) {
        ObjectNode o = JSON.objectNode();
        o.put("apiVersion", RBAC + "/v1").put("kind", kind);
        ObjectNode meta = o.putObject("metadata");
        meta.put("name", name);
        meta.putObject("annotations").put("rbac.authorization.kubernetes.io/autoupdate", "true");
        ObjectNode l = meta.putObject("labels");
        l.put(LABEL, LABEL_VALUE);
        labels.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> l.put(e.getKey(), e.getValue()));
        return o;
    }

    private static String[] groups(String... g) {
        return g;
    }

    private static String[] resources(String... r) {
        return r;
    }

    /** A PolicyRule in its Go field order (verbs, apiGroups, resources), each list sorted. */
    private static ObjectNode rule(String[] verbs, String[] groups, String[] resources) {
        ObjectNode r = JSON.objectNode();
        sortedArray(r, "verbs", verbs);
        sortedArray(r, "apiGroups", groups);
        sortedArray(r, "resources", resources);
        return r;
    }

    private static ObjectNode urls(String[] verbs, String... paths) {
        ObjectNode r = JSON.objectNode();
        sortedArray(r, "verbs", verbs);
        sortedArray(r, "nonResourceURLs", paths);
        return r;
    }

    private static void sortedArray(ObjectNode parent, String field, String[] values) {
        ArrayNode a = parent.putArray(field);
        Arrays.stream(values).sorted().forEach(a::add);
    }
}
