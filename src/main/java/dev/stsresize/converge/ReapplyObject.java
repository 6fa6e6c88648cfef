package dev.stsresize.converge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The exact StatefulSet to re-apply after the orphan delete: the declared one, never scaled (the live
 * {@code replicas} and RollingUpdate {@code partition} carried when the manifest omits or differs
 * from them), with the owner metadata of the live object the manifest lacks (Helm, Flux, Argo CD),
 * kubectl's last-applied annotation written anew for the declared object where the live one has it
 * ({@link LastApplied}), and no server-owned field.
 */
public final class ReapplyObject {
    /** Annotation prefixes and keys by which owners recognise their objects. */
    private static final List<String> OWNER_PREFIXES = List.of("meta.helm.sh/", "kustomize.toolkit.fluxcd.io/",
            "helm.toolkit.fluxcd.io/", "argocd.argoproj.io/");
    private static final List<String> OWNER_KEYS = List.of("app.kubernetes.io/managed-by",
            "kubectl.kubernetes.io/last-applied-configuration", "app.kubernetes.io/instance");

    private ReapplyObject() {}

    public static ObjectNode of(ObjectNode declared, ObjectNode live) {
        ObjectNode out = Objects.creatable(declared);
        out.put("apiVersion", "apps/v1");
        out.put("kind", "StatefulSet");
        ObjectNode meta = Objects.child(out, "metadata");
        meta.put("namespace", Objects.namespace(declared));
        meta.remove("ownerReferences");
        carryOwnerMetadata(live, meta, "labels");
        carryOwnerMetadata(live, meta, "annotations");
        if (live.path("metadata").path("annotations").has(LastApplied.ANNOTATION)) {
            // applied client-side: the annotation must declare the object as the new manifest does, or kubectl diff and
            // kubectl apply -f of that manifest would see the old size as what the operator last applied
            Objects.child(meta, "annotations").put(LastApplied.ANNOTATION, LastApplied.of(declared));
        }
        ObjectNode spec = Objects.child(out, "spec");
        JsonNode liveReplicas = live.path("spec").path("replicas");
        int replicas = liveReplicas.isNumber() ? liveReplicas.asInt() : 1;
        JsonNode declaredReplicas = spec.path("replicas");
        if (!declaredReplicas.isNumber() || declaredReplicas.asInt() != replicas) {
            spec.put("replicas", replicas);
        }
        JsonNode livePartition = live.path("spec").path("updateStrategy").path("rollingUpdate").path("partition");
        if (livePartition.isNumber() && "RollingUpdate".equals(live.path("spec").path("updateStrategy").path("type").asText("RollingUpdate"))) {
            JsonNode declaredPartition = spec.path("updateStrategy").path("rollingUpdate").path("partition");
            if (!declaredPartition.isNumber() || declaredPartition.asInt() != livePartition.asInt()) {
                ObjectNode strategy = Objects.child(spec, "updateStrategy");
                if (!strategy.has("type")) {
                    strategy.put("type", "RollingUpdate");
                }
                if ("RollingUpdate".equals(strategy.path("type").asText())) {
                    Objects.child(strategy, "rollingUpdate").put("partition", livePartition.asInt());
                }
            }
        }
        return out;
    }

    /** The same object with the claim templates of {@code live}: the dry run that proves only they differ. */
    public static ObjectNode withLiveTemplates(ObjectNode reapply, ObjectNode live) {
        ObjectNode copy = reapply.deepCopy();
        JsonNode templates = live.path("spec").path("volumeClaimTemplates");
        if (templates.isArray()) {
            Objects.child(copy, "spec").set("volumeClaimTemplates", templates.deepCopy());
        } else {
            Objects.child(copy, "spec").remove("volumeClaimTemplates");
        }
        return copy;
    }

    private static void carryOwnerMetadata(ObjectNode live, ObjectNode meta, String section) {
        JsonNode liveSection = live.path("metadata").path(section);
        Iterator<Map.Entry<String, JsonNode>> it = liveSection.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            String k = e.getKey();
            boolean owner = OWNER_KEYS.contains(k) || OWNER_PREFIXES.stream().anyMatch(k::startsWith);
            if (owner && !meta.path(section).has(k)) {
                Objects.child(meta, section).set(k, e.getValue().deepCopy());
            }
        }
    }

    /**
     * The field manager to re-apply with: {@code explicit}, else the manager that owned
     * {@code spec.template} in the live managedFields, else "kubectl" (kubectl apply --server-side's).
     */
    public static String fieldManager(ObjectNode live, Optional<String> explicit) {
        if (explicit.isPresent()) {
            return explicit.get();
        }
        for (JsonNode entry : live.path("metadata").path("managedFields")) {
            if (entry.path("fieldsV1").path("f:spec").has("f:template")) {
                String m = entry.path("manager").asText("");
                if (!m.isEmpty()) {
                    return m;
                }
            }
        }
        return "kubectl";
    }
}
