package dev.stsresize.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** What a user must know before a StatefulSet is orphan-deleted and re-applied. */
final class Warnings {
    /** Labels and annotations by which a GitOps reconciler marks what it applies, and how to pause it. */
    private static final List<Map.Entry<String, String>> RECONCILER_MARKS = List.of(
            Map.entry("kustomize.toolkit.fluxcd.io/name", "Flux (flux suspend kustomization %s)"),
            Map.entry("helm.toolkit.fluxcd.io/name", "Flux (flux suspend helmrelease %s)"),
            Map.entry("argocd.argoproj.io/instance", "Argo CD (disable auto-sync of application %s)"),
            Map.entry("argocd.argoproj.io/tracking-id", "Argo CD (disable auto-sync of application %s)"));
    private static final int MAX_PATHS = 3;

    private Warnings() {}

    static List<String> forRecreate(ObjectNode declared, ObjectNode live) {
        List<String> out = new ArrayList<>();
        replicas(declared, live, out);
        podTemplate(declared, live, out);
        String reconciler = reconciler(declared, live);
        if (reconciler != null) {
            out.add("managed by " + reconciler + ": suspend the reconciler first, or it may re-apply the StatefulSet"
                    + " while it is absent");
            if ("Delete".equals(Metadata.text(live, "spec", "persistentVolumeClaimRetentionPolicy", "whenDeleted"))
                    || "Delete".equals(Metadata.text(declared, "spec", "persistentVolumeClaimRetentionPolicy", "whenDeleted"))) {
                out.add("persistentVolumeClaimRetentionPolicy.whenDeleted is Delete under a reconciler: a reconciler that"
                        + " force-replaces (delete with Background propagation) would delete the claims and their data");
            }
        }
        return out;
    }

    private static void replicas(ObjectNode declared, ObjectNode live, List<String> out) {
        int liveReplicas = Trees.integer(live, 1, "spec", "replicas");
        JsonNode d = declared.path("spec").path("replicas");
        if (d.isMissingNode() || d.isNull()) {
            out.add("the manifest omits replicas: the re-applied StatefulSet keeps the live " + liveReplicas);
        } else if (d.asInt() != liveReplicas) {
            out.add("the manifest declares " + d.asInt() + " replicas, the live StatefulSet runs " + liveReplicas
                    + ": the re-apply keeps " + liveReplicas + " (the recreate never scales); the next apply scales");
        }
        JsonNode partition = live.path("spec").path("updateStrategy").path("rollingUpdate").path("partition");
        if (partition.isNumber() && partition.asInt() > 0) {
            out.add("the live rollingUpdate partition " + partition.asInt() + " is carried over to the re-applied StatefulSet");
        }
    }

    private static void podTemplate(ObjectNode declared, ObjectNode live, List<String> out) {
        List<String> paths = Trees.notContained(declared.path("spec").path("template"), live.path("spec").path("template"),
                "spec.template");
        if (!paths.isEmpty()) {
            List<String> shown = paths.size() > MAX_PATHS ? paths.subList(0, MAX_PATHS) : paths;
            out.add("the pod template differs from the live one (" + String.join(", ", shown)
                    + (paths.size() > MAX_PATHS ? ", ..." : "") + "): the pods will roll after the re-apply");
        }
    }

    private static String reconciler(ObjectNode declared, ObjectNode live) {
        for (JsonNode obj : List.of(live, declared)) {
            for (String section : List.of("labels", "annotations")) {
                JsonNode marks = obj.path("metadata").path(section);
                for (Map.Entry<String, String> m : RECONCILER_MARKS) {
                    String value = Metadata.text(marks, m.getKey());
                    if (value != null) {
                        String owner = m.getKey().startsWith("argocd.argoproj.io/tracking-id") ? value.split(":")[0] : value;
                        return String.format(m.getValue(), owner) + " [" + m.getKey() + "]";
                    }
                }
            }
        }
        return null;
    }
}
