package dev.stsresize.sim.patch;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The ONE table of list semantics for the kinds the simulator serves, used by both strategic merge
 * patch and server-side apply.
 *
 * <p>Source: the Go struct tags of k8s.io/api v0.32 — core/v1/types.go (PodSpec, Container,
 * ServiceAccount, PersistentVolumeClaimStatus, NamespaceStatus, PodStatus), apps/v1/types.go
 * (StatefulSetSpec, StatefulSetStatus), batch/v1/types.go (JobStatus), policy/v1/types.go
 * (PodDisruptionBudgetStatus) and apimachinery meta/v1/types.go (ObjectMeta): {@code patchStrategy}
 * and {@code patchMergeKey} drive strategic merge patch; {@code +listType} and {@code +listMapKey}
 * (x-kubernetes-list-type / -map-keys in OpenAPI) drive structured-merge-diff. A list not in the
 * table has neither: SMP replaces it, SSA treats it as atomic — {@code spec.volumeClaimTemplates},
 * {@code accessModes}, {@code tolerations}, {@code command}, {@code args}, Role {@code rules}…
 */
final class MergeKeys {
    /** How structured-merge-diff sees a list. */
    enum ListType { ATOMIC, SET, MAP }

    /**
     * One list's semantics. {@code smpMerge} is {@code patchStrategy:"merge"}; {@code smpKey} its
     * {@code patchMergeKey} (null for a merged list of scalars, e.g. finalizers). {@code keyDefaults}
     * fill SSA key fields the schema defaults (a container port's protocol is TCP).
     */
    record ListSchema(ListType ssaType, List<String> ssaKeys, boolean smpMerge, String smpKey, Map<String, String> keyDefaults) {}

    static final ListSchema ATOMIC = new ListSchema(ListType.ATOMIC, List.of(), false, null, Map.of());

    private static ListSchema byKey(String key) {
        return new ListSchema(ListType.MAP, List.of(key), true, key, Map.of());
    }

    /** metadata.finalizers: patchStrategy merge without a key, +listType=set. */
    private static final ListSchema MERGED_SET = new ListSchema(ListType.SET, List.of(), true, null, Map.of());

    /** Container.ports: SMP merges by containerPort alone, SSA keys by containerPort and protocol. */
    private static final ListSchema CONTAINER_PORTS =
            new ListSchema(ListType.MAP, List.of("containerPort", "protocol"), true, "containerPort", Map.of("protocol", "TCP"));

    /** Lists inside a Container (also initContainers and ephemeralContainers). */
    private static final Map<String, ListSchema> CONTAINER = Map.of(
            "ports", CONTAINER_PORTS,
            "env", byKey("name"),
            "volumeMounts", byKey("mountPath"),
            "volumeDevices", byKey("devicePath"));

    /** Lists of a PodSpec. */
    private static final Map<String, ListSchema> POD_SPEC = Map.of(
            "containers", byKey("name"),
            "initContainers", byKey("name"),
            "ephemeralContainers", byKey("name"),
            "volumes", byKey("name"),
            "imagePullSecrets", byKey("name"),
            "hostAliases", byKey("ip"),
            "resourceClaims", byKey("name"),
            "schedulingGates", byKey("name"),
            "topologySpreadConstraints", new ListSchema(ListType.MAP, List.of("topologyKey", "whenUnsatisfiable"), true, "topologyKey", Map.of()));

    /** Lists of an ObjectMeta, wherever one sits (the object's and a pod template's). */
    private static final Map<String, ListSchema> OBJECT_META = Map.of(
            "finalizers", MERGED_SET,
            "ownerReferences", byKey("uid"));

    /** Where a kind embeds a PodSpec. */
    private static final Map<String, String> POD_SPEC_AT = Map.of(
            "Pod", "spec",
            "StatefulSet", "spec.template.spec",
            "Job", "spec.template.spec");

    /** Lists particular to a kind, by dotted path from the object root (list items not counted). */
    private static final Map<String, Map<String, ListSchema>> BY_KIND = Map.of(
            "Pod", Map.of("status.conditions", byKey("type")),
            "StatefulSet", Map.of("status.conditions", byKey("type")),
            "PersistentVolumeClaim", Map.of("status.conditions", byKey("type")),
            "Namespace", Map.of("status.conditions", byKey("type")),
            "PodDisruptionBudget", Map.of("status.conditions", byKey("type")),
            // JobStatus.conditions: patchMergeKey type, but +listType=atomic
            "Job", Map.of("status.conditions", new ListSchema(ListType.ATOMIC, List.of(), true, "type", Map.of())),
            "ServiceAccount", Map.of("secrets", byKey("name")));

    /** Structs marked +structType=atomic (metav1.LabelSelector) that SSA owns whole. */
    private static final Map<String, Set<String>> ATOMIC_STRUCTS = Map.of(
            "StatefulSet", Set.of("spec.selector"),
            "Job", Set.of("spec.selector"),
            "PodDisruptionBudget", Set.of("spec.selector"),
            "PersistentVolumeClaim", Set.of("spec.selector"),
            "NetworkPolicy", Set.of("spec.podSelector"));

    private MergeKeys() {}

    /** The semantics of the list at {@code path} (field names joined by dots) in an object of {@code kind}. */
    static ListSchema list(String kind, String path) {
        return table(kind == null ? "" : kind).getOrDefault(path, ATOMIC);
    }

    /** True when the map at {@code path} is an atomic struct: replaced and owned whole. */
    static boolean atomicStruct(String kind, String path) {
        return ATOMIC_STRUCTS.getOrDefault(kind == null ? "" : kind, Set.of()).contains(path);
    }

    private static Map<String, ListSchema> table(String kind) {
        Map<String, ListSchema> t = new HashMap<>(BY_KIND.getOrDefault(kind, Map.of()));
        OBJECT_META.forEach((field, schema) -> t.put("metadata." + field, schema));
        String podSpec = POD_SPEC_AT.get(kind);
        if (podSpec != null) {
            POD_SPEC.forEach((field, schema) -> t.put(podSpec + "." + field, schema));
            for (String containers : List.of("containers", "initContainers", "ephemeralContainers")) {
                CONTAINER.forEach((field, schema) -> t.put(podSpec + "." + containers + "." + field, schema));
            }
            if (podSpec.startsWith("spec.template.")) {
                OBJECT_META.forEach((field, schema) -> t.put("spec.template.metadata." + field, schema));
            }
        }
        return t;
    }
}
