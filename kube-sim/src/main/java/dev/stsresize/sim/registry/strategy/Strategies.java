package dev.stsresize.sim.registry.strategy;

import dev.stsresize.sim.store.ResourceType;
import dev.stsresize.sim.admission.FeatureGates;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The one table of strategies, by group resource ("statefulsets.apps", "persistentvolumeclaims"), as
 * kube-apiserver's REST storage providers register one storage with its strategy per resource
 * (pkg/registry/GROUP/rest/storage_*.go). A resource not listed gets the generic behaviour. A resource
 * that behaves differently is one strategy class and one line here.
 */
public final class Strategies {
    private static final Strategy GENERIC = new Strategy() {};
    private static final String RBAC = ".rbac.authorization.k8s.io";

    private final Map<String, Strategy> byResource;
    private final FeatureGates gates;

    private Strategies(Map<String, Strategy> byResource, FeatureGates gates) {
        this.byResource = Map.copyOf(byResource);
        this.gates = gates;
    }

    /** The feature gates these strategies read (v1.32's defaults until set). */
    public FeatureGates featureGates() {
        return gates;
    }

    public static Strategies standard() {
        FeatureGates gates = new FeatureGates();
        Map<String, Strategy> m = new LinkedHashMap<>();
        m.put("namespaces", new NamespaceStrategy());
        m.put("persistentvolumeclaims", new PersistentVolumeClaimStrategy(gates));
        m.put("persistentvolumes", new PersistentVolumeStrategy());
        m.put("pods", new PodStrategy());
        m.put("events", EventStrategy.LEGACY);
        m.put("secrets", new SecretStrategy());
        m.put("services", new ServiceStrategy());
        m.put("statefulsets.apps", new StatefulSetStrategy());
        m.put("csidrivers.storage.k8s.io", new CsiDriverStrategy());
        m.put("events.events.k8s.io", EventStrategy.STRICT);
        Strategy rbac = new RbacStrategy();
        m.put("roles" + RBAC, rbac);
        m.put("rolebindings" + RBAC, rbac);
        m.put("clusterroles" + RBAC, rbac);
        m.put("clusterrolebindings" + RBAC, rbac);
        m.put("selfsubjectaccessreviews.authorization.k8s.io", new AccessReviewStrategy());
        return new Strategies(m, gates);
    }

    /** This table with {@code strategy} for {@code groupResource} (in place of the one it had). */
    public Strategies with(String groupResource, Strategy strategy) {
        Map<String, Strategy> m = new LinkedHashMap<>(byResource);
        m.put(groupResource, strategy);
        return new Strategies(m, gates);
    }

    public Strategy of(ResourceType t) {
        return byResource.getOrDefault(t.groupResource(), GENERIC);
    }
}
