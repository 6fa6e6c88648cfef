package dev.stsresize.sim.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * The identities a StatefulSet gives its pods and claims (pkg/controller/statefulset/stateful_set_utils.go):
 * pod {@code <set>-<ordinal>} with hostname, subdomain, the pod-name, pod-index and revision labels
 * and one volume per claim template; claim {@code <template>-<set>-<ordinal>} with the template's
 * labels plus the selector's matchLabels.
 */
final class StatefulSetPods {
    static final String POD_NAME_LABEL = "statefulset.kubernetes.io/pod-name";
    static final String POD_INDEX_LABEL = "apps.kubernetes.io/pod-index";
    /** Added by the StorageObjectInUseProtection admission plugin on every claim the set creates. */
    static final String CLAIM_PROTECTION = "kubernetes.io/pvc-protection";

    private StatefulSetPods() {}

    static int start(JsonNode set) {
        return set.path("spec").path("ordinals").path("start").asInt(0);
    }

    static int replicas(JsonNode set) {
        return set.path("spec").path("replicas").asInt(1);
    }

    static boolean inRange(JsonNode set, int ordinal) {
        return ordinal >= start(set) && ordinal < start(set) + replicas(set);
    }

    static String podName(JsonNode set, int ordinal) {
        return ObjectMeta.name(set) + "-" + ordinal;
    }

    /** The ordinal of a member pod ({@code <set>-<n>}), or -1 for a pod that is not one. */
    static int ordinal(JsonNode set, JsonNode pod) {
        String prefix = ObjectMeta.name(set) + "-";
        String name = ObjectMeta.name(pod);
        if (!name.startsWith(prefix)) {
            return -1;
        }
        String n = name.substring(prefix.length());
        if (n.isEmpty() || !n.chars().allMatch(Character::isDigit) || n.length() > 9) {
            return -1;
        }
        return Integer.parseInt(n);
    }

    static String claimName(String template, JsonNode set, int ordinal) {
        return template + "-" + ObjectMeta.name(set) + "-" + ordinal;
    }

    /** newVersionedStatefulSetPod: the pod of {@code ordinal} from {@code template}, labelled with {@code revision}. */
    static ObjectNode pod(JsonNode set, JsonNode template, int ordinal, String revision) {
        String name = podName(set, ordinal);
        ObjectNode pod = ObjectMeta.NODES.objectNode();
        pod.put("apiVersion", "v1");
        pod.put("kind", "Pod");
        ObjectNode meta = pod.putObject("metadata");
        meta.put("name", name);
        meta.put("generateName", ObjectMeta.name(set) + "-");
        meta.put("namespace", ObjectMeta.ns(set));
        ObjectNode labels = meta.putObject("labels");
        template.path("metadata").path("labels").fields().forEachRemaining(e -> labels.set(e.getKey(), e.getValue()));
        labels.put(Revisions.HASH_LABEL, revision);
        labels.put(POD_NAME_LABEL, name);
        labels.put(POD_INDEX_LABEL, Integer.toString(ordinal));
        if (template.path("metadata").has("annotations")) {
            meta.set("annotations", template.path("metadata").get("annotations").deepCopy());
        }
        meta.putArray("ownerReferences").add(ObjectMeta.controllerRefTo(set));
        ObjectNode spec = template.path("spec").deepCopy();
        spec.put("hostname", name);
        spec.put("subdomain", set.path("spec").path("serviceName").asText(""));
        ArrayNode volumes = ObjectMeta.NODES.arrayNode();
        for (JsonNode t : set.path("spec").path("volumeClaimTemplates")) {
            String tn = ObjectMeta.name(t);
            volumes.addObject().put("name", tn).putObject("persistentVolumeClaim").put("claimName", claimName(tn, set, ordinal));
        }
        for (JsonNode v : spec.path("volumes")) {
            boolean replaced = false;
            for (JsonNode t : set.path("spec").path("volumeClaimTemplates")) {
                replaced |= ObjectMeta.name(t).equals(v.path("name").asText());
            }
            if (!replaced) {
                volumes.add(v);
            }
        }
        if (!volumes.isEmpty()) {
            spec.set("volumes", volumes);
        }
        pod.set("spec", spec);
        return pod;
    }

    /** getPersistentVolumeClaims: the claim of one template for one ordinal. */
    static ObjectNode claim(JsonNode set, JsonNode template, int ordinal) {
        ObjectNode claim = ObjectMeta.NODES.objectNode();
        claim.put("apiVersion", "v1");
        claim.put("kind", "PersistentVolumeClaim");
        ObjectNode meta = claim.putObject("metadata");
        meta.put("name", claimName(ObjectMeta.name(template), set, ordinal));
        meta.put("namespace", ObjectMeta.ns(set));
        ObjectNode labels = meta.putObject("labels");
        template.path("metadata").path("labels").fields().forEachRemaining(e -> labels.set(e.getKey(), e.getValue()));
        for (Map.Entry<String, JsonNode> e : ObjectMeta.iterable(set.path("spec").path("selector").path("matchLabels"))) {
            labels.set(e.getKey(), e.getValue());
        }
        if (template.path("metadata").has("annotations")) {
            meta.set("annotations", template.path("metadata").get("annotations").deepCopy());
        }
        meta.putArray("finalizers").add(CLAIM_PROTECTION);
        claim.set("spec", template.path("spec").deepCopy());
        return claim;
    }

    /**
     * Milliseconds until a running and ready pod has been ready for minReadySeconds (0: available
     * now; negative: not ready at all), as isRunningAndAvailable counts it.
     */
    static long untilAvailable(JsonNode set, JsonNode pod, java.time.Instant now) {
        if (!runningAndReady(pod)) {
            return -1;
        }
        int minReady = set.path("spec").path("minReadySeconds").asInt(0);
        if (minReady <= 0) {
            return 0;
        }
        for (JsonNode c : pod.path("status").path("conditions")) {
            if (c.path("type").asText().equals("Ready") && !c.path("lastTransitionTime").asText("").isEmpty()) {
                java.time.Instant since = java.time.Instant.parse(c.path("lastTransitionTime").asText());
                return Math.max(0, since.plusSeconds(minReady).toEpochMilli() - now.toEpochMilli());
            }
        }
        return 0;
    }

    static boolean runningAndReady(JsonNode pod) {
        return "Running".equals(pod.path("status").path("phase").asText()) && ObjectMeta.conditionTrue(pod, "Ready")
                && !ObjectMeta.deleting(pod);
    }
}
