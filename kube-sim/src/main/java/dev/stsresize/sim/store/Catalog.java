package dev.stsresize.sim.store;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Every resource the simulated server serves, with the discovery data of a real v1.32 server
 * (verbs, short names, categories and subresources as {@code kubectl api-resources} shows them).
 */
public final class Catalog {
    private static final List<String> ALL = ResourceType.ALL_VERBS;
    private static final List<String> NO_DELETECOLLECTION =
            List.of("create", "delete", "get", "list", "patch", "update", "watch");

    private final List<ResourceType> types = new ArrayList<>();
    private final Map<String, ResourceType> byGroupResource = new LinkedHashMap<>();
    private final Map<String, ResourceType> byApiVersionKind = new LinkedHashMap<>();

    private static final Catalog STANDARD = new Catalog();

    public static Catalog standard() {
        return STANDARD;
    }

    private Catalog() {
        core("namespaces", "Namespace", false, NO_DELETECOLLECTION, List.of("ns"), List.of(), Set.of("status", "finalize"), false, true);
        core("persistentvolumeclaims", "PersistentVolumeClaim", true, ALL, List.of("pvc"), List.of(), Set.of("status"), false, true);
        core("persistentvolumes", "PersistentVolume", false, ALL, List.of("pv"), List.of(), Set.of("status"), false, true);
        core("pods", "Pod", true, ALL, List.of("po"), List.of("all"), Set.of("status", "eviction", "log"), false, true);
        core("events", "Event", true, ALL, List.of("ev"), List.of(), Set.of(), false, false);
        core("serviceaccounts", "ServiceAccount", true, ALL, List.of("sa"), List.of(), Set.of("token"), false, true);
        core("secrets", "Secret", true, ALL, List.of(), List.of(), Set.of(), false, false);
        core("resourcequotas", "ResourceQuota", true, ALL, List.of("quota"), List.of(), Set.of("status"), false, false);
        // what a chart or kustomize output holds beside StatefulSets (kubectl api-resources of v1.32)
        core("configmaps", "ConfigMap", true, ALL, List.of("cm"), List.of(), Set.of(), false, false);
        core("services", "Service", true, NO_DELETECOLLECTION, List.of("svc"), List.of("all"), Set.of("status"), false, true);
        core("endpoints", "Endpoints", true, ALL, List.of("ep"), List.of(), Set.of(), false, false);
        core("limitranges", "LimitRange", true, ALL, List.of("limits"), List.of(), Set.of(), false, false);
        core("podtemplates", "PodTemplate", true, ALL, List.of(), List.of(), Set.of(), false, false);
        core("replicationcontrollers", "ReplicationController", true, ALL, List.of("rc"), List.of("all"), Set.of("status", "scale"), true, false);
        add("apps", "statefulsets", "StatefulSet", true, ALL, List.of("sts"), List.of("all"), Set.of("status", "scale"), true, false);
        add("apps", "controllerrevisions", "ControllerRevision", true, ALL, List.of(), List.of(), Set.of(), false, false);
        add("apps", "deployments", "Deployment", true, ALL, List.of("deploy"), List.of("all"), Set.of("status", "scale"), true, false);
        add("apps", "replicasets", "ReplicaSet", true, ALL, List.of("rs"), List.of("all"), Set.of("status", "scale"), true, false);
        add("apps", "daemonsets", "DaemonSet", true, ALL, List.of("ds"), List.of("all"), Set.of("status"), true, false);
        // storage.k8s.io/v1 in the order /apis/storage.k8s.io/v1 lists it (csinodes, volumeattachments… not served)
        add("storage.k8s.io", "csidrivers", "CSIDriver", false, ALL, List.of(), List.of(), Set.of(), false, false);
        add("storage.k8s.io", "storageclasses", "StorageClass", false, ALL, List.of("sc"), List.of(), Set.of(), false, false);
        add("coordination.k8s.io", "leases", "Lease", true, ALL, List.of(), List.of(), Set.of(), false, false);
        add("events.k8s.io", "events", "Event", true, ALL, List.of("ev"), List.of(), Set.of(), false, false);
        add("batch", "jobs", "Job", true, ALL, List.of(), List.of("all"), Set.of("status"), true, false);
        add("batch", "cronjobs", "CronJob", true, ALL, List.of("cj"), List.of("all"), Set.of("status"), true, false);
        add("rbac.authorization.k8s.io", "roles", "Role", true, ALL, List.of(), List.of(), Set.of(), false, false);
        add("rbac.authorization.k8s.io", "rolebindings", "RoleBinding", true, ALL, List.of(), List.of(), Set.of(), false, false);
        add("rbac.authorization.k8s.io", "clusterroles", "ClusterRole", false, ALL, List.of(), List.of(), Set.of(), false, false);
        add("rbac.authorization.k8s.io", "clusterrolebindings", "ClusterRoleBinding", false, ALL, List.of(), List.of(), Set.of(), false, false);
        add("networking.k8s.io", "networkpolicies", "NetworkPolicy", true, ALL, List.of("netpol"), List.of(), Set.of(), true, false);
        add("networking.k8s.io", "ingresses", "Ingress", true, ALL, List.of("ing"), List.of(), Set.of("status"), true, false);
        add("networking.k8s.io", "ingressclasses", "IngressClass", false, ALL, List.of(), List.of(), Set.of(), false, false);
        add("discovery.k8s.io", "endpointslices", "EndpointSlice", true, ALL, List.of(), List.of(), Set.of(), false, false);
        add("authorization.k8s.io", "selfsubjectaccessreviews", "SelfSubjectAccessReview", false, List.of("create"), List.of(), List.of(), Set.of(), false, false);
        add("authorization.k8s.io", "selfsubjectrulesreviews", "SelfSubjectRulesReview", false, List.of("create"), List.of(), List.of(), Set.of(), false, false);
        add("policy", "poddisruptionbudgets", "PodDisruptionBudget", true, ALL, List.of("pdb"), List.of(), Set.of("status"), true, false);
    }

    private void core(String resource, String kind, boolean namespaced, List<String> verbs, List<String> shortNames,
            List<String> categories, Set<String> subs, boolean generation, boolean returnsObject) {
        add("", resource, kind, namespaced, verbs, shortNames, categories, subs, generation, returnsObject);
    }

    private void add(String group, String resource, String kind, boolean namespaced, List<String> verbs,
            List<String> shortNames, List<String> categories, Set<String> subs, boolean generation, boolean returnsObject) {
        ResourceType t = new ResourceType(group, "v1", resource, kind, namespaced, verbs, shortNames, categories, subs,
                generation, returnsObject);
        types.add(t);
        byGroupResource.put(group + "/" + resource, t);
        byApiVersionKind.put(t.apiVersion() + "/" + kind, t);
    }

    public List<ResourceType> all() {
        return List.copyOf(types);
    }

    public Optional<ResourceType> byResource(String group, String resource) {
        return Optional.ofNullable(byGroupResource.get(group + "/" + resource));
    }

    public Optional<ResourceType> byKind(String apiVersion, String kind) {
        return Optional.ofNullable(byApiVersionKind.get(apiVersion + "/" + kind));
    }

    /** Group names in the order {@code /apis} lists them. */
    public List<String> groups() {
        List<String> gs = new ArrayList<>();
        for (ResourceType t : types) {
            if (!t.group().isEmpty() && !gs.contains(t.group())) {
                gs.add(t.group());
            }
        }
        return gs;
    }

    public List<ResourceType> inGroup(String group) {
        return types.stream().filter(t -> t.group().equals(group)).toList();
    }

    /** Discovery data of a subresource: kind, group, version and verbs as the real server lists them. */
    public record Sub(String group, String version, String kind, List<String> verbs) {}

    public static Sub subresource(ResourceType parent, String sub) {
        return switch (sub) {
            case "scale" -> new Sub("autoscaling", "v1", "Scale", List.of("get", "patch", "update"));
            case "eviction" -> new Sub("policy", "v1", "Eviction", List.of("create"));
            case "token" -> new Sub("authentication.k8s.io", "v1", "TokenRequest", List.of("create"));
            case "finalize" -> new Sub("", "", parent.kind(), List.of("update"));
            case "log" -> new Sub("", "", parent.kind(), List.of("get"));
            default -> new Sub("", "", parent.kind(), List.of("get", "patch", "update"));
        };
    }
}
