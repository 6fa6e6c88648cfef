package dev.stsresize.sim.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.store.ResourceType;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The defaulting a real v1.32 server applies before storing (pkg/apis/core/v1/defaults.go,
 * pkg/apis/apps/v1/defaults.go, pkg/apis/storage/v1/defaults.go) and canonical quantities, in place.
 * Only what the plugin or kubectl can observe is filled; the reference file lists the fields.
 */
public final class Defaults {
    /** Maps whose values are quantities, wherever they appear (requests, limits, capacity, quota hard/used…). */
    private static final Set<String> QUANTITY_MAPS =
            Set.of("requests", "limits", "capacity", "allocatedResources", "hard", "used", "allocatable", "overhead");

    private Defaults() {}

    /**
     * The defaulting functions by kind, as zz_generated.defaults.go's RegisterDefaults adds one per type to the
     * scheme (AddTypeDefaultingFunc); a kind not listed has none beyond canonical quantities.
     */
    private static final Map<String, Consumer<ObjectNode>> BY_KIND = Map.ofEntries(
            Map.entry("StatefulSet", Defaults::statefulSet),
            Map.entry("PersistentVolumeClaim", o -> claim(o, false)),
            Map.entry("PersistentVolume", Defaults::volume),
            Map.entry("Pod", Defaults::pod),
            Map.entry("Job", Defaults::job),
            Map.entry("Deployment", Defaults::deployment),
            Map.entry("ReplicaSet", Defaults::replicaSet),
            Map.entry("DaemonSet", Defaults::daemonSet),
            Map.entry("CronJob", Defaults::cronJob),
            Map.entry("Service", Defaults::service),
            Map.entry("StorageClass", Defaults::storageClass),
            Map.entry("CSIDriver", Defaults::csiDriver),
            Map.entry("Namespace", Defaults::namespace),
            // core/v1 SetDefaults_Secret
            Map.entry("Secret", o -> o.putIfAbsent("type", o.textNode("Opaque"))));

    public static void apply(ResourceType t, ObjectNode o) {
        canonicalQuantities(t, o, null);
        BY_KIND.getOrDefault(t.kind(), x -> { }).accept(o);
    }

    private static void pod(ObjectNode o) {
        podSpec(obj(o, "spec"));
        o.withObject("/spec").putIfAbsent("enableServiceLinks", o.booleanNode(true));
    }

    private static void replicaSet(ObjectNode o) {
        obj(o, "spec").putIfAbsent("replicas", o.numberNode(1));
        podTemplate(obj(obj(o, "spec"), "template"));
    }

    private static void storageClass(ObjectNode o) {
        o.putIfAbsent("reclaimPolicy", o.textNode("Delete"));
        o.putIfAbsent("volumeBindingMode", o.textNode("Immediate"));
    }

    /** pkg/apis/storage/v1/defaults.go SetDefaults_CSIDriver (SELinuxMountReadWriteOncePod on by default in v1.32). */
    private static void csiDriver(ObjectNode o) {
        ObjectNode spec = obj(o, "spec");
        spec.putIfAbsent("attachRequired", spec.booleanNode(true));
        spec.putIfAbsent("podInfoOnMount", spec.booleanNode(false));
        spec.putIfAbsent("storageCapacity", spec.booleanNode(false));
        spec.putIfAbsent("fsGroupPolicy", spec.textNode("ReadWriteOnceWithFSType"));
        if (spec.path("volumeLifecycleModes").isEmpty()) {
            spec.putArray("volumeLifecycleModes").add("Persistent");
        }
        spec.putIfAbsent("requiresRepublish", spec.booleanNode(false));
        spec.putIfAbsent("seLinuxMount", spec.booleanNode(false));
    }

    private static void statefulSet(ObjectNode o) {
        ObjectNode spec = obj(o, "spec");
        spec.putIfAbsent("replicas", spec.numberNode(1));
        spec.putIfAbsent("podManagementPolicy", spec.textNode("OrderedReady"));
        spec.putIfAbsent("revisionHistoryLimit", spec.numberNode(10));
        ObjectNode strategy = obj(spec, "updateStrategy");
        strategy.putIfAbsent("type", strategy.textNode("RollingUpdate"));
        if ("RollingUpdate".equals(strategy.path("type").asText())) {
            obj(strategy, "rollingUpdate").putIfAbsent("partition", strategy.numberNode(0));
        }
        ObjectNode retention = obj(spec, "persistentVolumeClaimRetentionPolicy");
        retention.putIfAbsent("whenDeleted", retention.textNode("Retain"));
        retention.putIfAbsent("whenScaled", retention.textNode("Retain"));
        podTemplate(obj(spec, "template"));
        if (spec.get("volumeClaimTemplates") instanceof ArrayNode claims) {
            for (JsonNode c : claims) {
                if (c instanceof ObjectNode claim) {
                    claim(claim, true);
                }
            }
        }
    }

    /** A claim, or a claim template inside a StatefulSet (which also gets apiVersion, kind and a null creationTimestamp). */
    private static void claim(ObjectNode c, boolean template) {
        if (template) {
            c.putIfAbsent("apiVersion", c.textNode("v1"));
            c.putIfAbsent("kind", c.textNode("PersistentVolumeClaim"));
            obj(c, "metadata").putIfAbsent("creationTimestamp", c.nullNode());
        }
        obj(c, "spec").putIfAbsent("volumeMode", c.textNode("Filesystem"));
        obj(c, "status").putIfAbsent("phase", c.textNode("Pending"));
    }

    private static void volume(ObjectNode o) {
        ObjectNode spec = obj(o, "spec");
        spec.putIfAbsent("volumeMode", spec.textNode("Filesystem"));
        spec.putIfAbsent("persistentVolumeReclaimPolicy", spec.textNode("Retain"));
        obj(o, "status").putIfAbsent("phase", o.textNode("Pending"));
    }

    private static void job(ObjectNode o) {
        ObjectNode spec = obj(o, "spec");
        spec.putIfAbsent("parallelism", spec.numberNode(1));
        spec.putIfAbsent("completions", spec.numberNode(1));
        spec.putIfAbsent("backoffLimit", spec.numberNode(6));
        spec.putIfAbsent("completionMode", spec.textNode("NonIndexed"));
        spec.putIfAbsent("suspend", spec.booleanNode(false));
        spec.putIfAbsent("podReplacementPolicy", spec.textNode("TerminatingOrFailed"));
        podTemplate(obj(spec, "template"));
    }

    /** SetDefaults_Deployment (pkg/apis/apps/v1/defaults.go). */
    private static void deployment(ObjectNode o) {
        ObjectNode spec = obj(o, "spec");
        spec.putIfAbsent("replicas", spec.numberNode(1));
        ObjectNode strategy = obj(spec, "strategy");
        strategy.putIfAbsent("type", strategy.textNode("RollingUpdate"));
        if ("RollingUpdate".equals(strategy.path("type").asText())) {
            ObjectNode ru = obj(strategy, "rollingUpdate");
            ru.putIfAbsent("maxUnavailable", ru.textNode("25%"));
            ru.putIfAbsent("maxSurge", ru.textNode("25%"));
        }
        spec.putIfAbsent("revisionHistoryLimit", spec.numberNode(10));
        spec.putIfAbsent("progressDeadlineSeconds", spec.numberNode(600));
        podTemplate(obj(spec, "template"));
    }

    /** SetDefaults_DaemonSet. */
    private static void daemonSet(ObjectNode o) {
        ObjectNode spec = obj(o, "spec");
        ObjectNode strategy = obj(spec, "updateStrategy");
        strategy.putIfAbsent("type", strategy.textNode("RollingUpdate"));
        if ("RollingUpdate".equals(strategy.path("type").asText())) {
            ObjectNode ru = obj(strategy, "rollingUpdate");
            ru.putIfAbsent("maxUnavailable", ru.numberNode(1));
            ru.putIfAbsent("maxSurge", ru.numberNode(0));
        }
        spec.putIfAbsent("revisionHistoryLimit", spec.numberNode(10));
        podTemplate(obj(spec, "template"));
    }

    /** SetDefaults_CronJob (pkg/apis/batch/v1/defaults.go). */
    private static void cronJob(ObjectNode o) {
        ObjectNode spec = obj(o, "spec");
        spec.putIfAbsent("concurrencyPolicy", spec.textNode("Allow"));
        spec.putIfAbsent("suspend", spec.booleanNode(false));
        spec.putIfAbsent("successfulJobsHistoryLimit", spec.numberNode(3));
        spec.putIfAbsent("failedJobsHistoryLimit", spec.numberNode(1));
        ObjectNode jobSpec = obj(obj(spec, "jobTemplate"), "spec");
        podTemplate(obj(jobSpec, "template"));
    }

    /**
     * SetDefaults_Service and the service REST's allocation (pkg/registry/core/service/storage/alloc.go):
     * type ClusterIP, a cluster IP unless headless ("None"), single-stack IPv4, ports TCP with
     * targetPort = port. The IP comes from 10.96.0.0/12 by a hash of namespace/name, so it is stable
     * across runs; the sim does not check two services for a collision.
     */
    private static void service(ObjectNode o) {
        ObjectNode spec = obj(o, "spec");
        spec.putIfAbsent("type", spec.textNode("ClusterIP"));
        spec.putIfAbsent("sessionAffinity", spec.textNode("None"));
        String type = spec.path("type").asText();
        if (!type.equals("ExternalName")) {
            if (spec.path("clusterIP").asText("").isEmpty()) {
                JsonNode m = o.path("metadata");
                int h = (m.path("namespace").asText() + "/" + m.path("name").asText()).hashCode() & 0xFFFFF;
                int host = 10 + (h % 0xFFFF0); // skip .0 to .9: the apiserver's own service lives at 10.96.0.1
                spec.put("clusterIP", "10." + (96 + (host >> 16)) + "." + ((host >> 8) & 0xFF) + "." + (host & 0xFF));
            }
            if (!spec.has("clusterIPs")) {
                spec.putArray("clusterIPs").add(spec.path("clusterIP").asText());
            }
            if (!spec.has("ipFamilies")) {
                spec.putArray("ipFamilies").add("IPv4");
            }
            spec.putIfAbsent("ipFamilyPolicy", spec.textNode("SingleStack"));
            spec.putIfAbsent("internalTrafficPolicy", spec.textNode("Cluster"));
        }
        if (spec.get("ports") instanceof ArrayNode ports) {
            for (JsonNode p : ports) {
                if (p instanceof ObjectNode port) {
                    port.putIfAbsent("protocol", port.textNode("TCP"));
                    if (port.has("port")) {
                        port.putIfAbsent("targetPort", port.get("port"));
                    }
                }
            }
        }
        obj(o, "status").putIfAbsent("loadBalancer", o.objectNode());
    }

    private static void namespace(ObjectNode o) {
        String name = o.path("metadata").path("name").asText();
        obj(obj(o, "metadata"), "labels").putIfAbsent("kubernetes.io/metadata.name", o.textNode(name));
        ObjectNode spec = obj(o, "spec");
        if (!spec.has("finalizers")) {
            spec.putArray("finalizers").add("kubernetes");
        }
        obj(o, "status").putIfAbsent("phase", o.textNode("Active"));
    }

    private static void podTemplate(ObjectNode template) {
        obj(template, "metadata").putIfAbsent("creationTimestamp", template.nullNode());
        podSpec(obj(template, "spec"));
    }

    private static void podSpec(ObjectNode spec) {
        spec.putIfAbsent("restartPolicy", spec.textNode("Always"));
        spec.putIfAbsent("terminationGracePeriodSeconds", spec.numberNode(30));
        spec.putIfAbsent("dnsPolicy", spec.textNode("ClusterFirst"));
        spec.putIfAbsent("securityContext", spec.objectNode());
        spec.putIfAbsent("schedulerName", spec.textNode("default-scheduler"));
        for (String list : new String[] {"containers", "initContainers"}) {
            if (spec.get(list) instanceof ArrayNode cs) {
                for (JsonNode c : cs) {
                    if (c instanceof ObjectNode container) {
                        container(container);
                    }
                }
            }
        }
    }

    private static void container(ObjectNode c) {
        c.putIfAbsent("terminationMessagePath", c.textNode("/dev/termination-log"));
        c.putIfAbsent("terminationMessagePolicy", c.textNode("File"));
        c.putIfAbsent("resources", c.objectNode());
        if (!c.has("imagePullPolicy")) {
            c.put("imagePullPolicy", pullPolicy(c.path("image").asText("")));
        }
        if (c.get("ports") instanceof ArrayNode ports) {
            for (JsonNode p : ports) {
                if (p instanceof ObjectNode port) {
                    port.putIfAbsent("protocol", port.textNode("TCP"));
                }
            }
        }
        for (String probe : new String[] {"livenessProbe", "readinessProbe", "startupProbe"}) {
            if (c.get(probe) instanceof ObjectNode p) {
                p.putIfAbsent("timeoutSeconds", p.numberNode(1));
                p.putIfAbsent("periodSeconds", p.numberNode(10));
                p.putIfAbsent("successThreshold", p.numberNode(1));
                p.putIfAbsent("failureThreshold", p.numberNode(3));
                if (p.get("httpGet") instanceof ObjectNode h) {
                    h.putIfAbsent("scheme", h.textNode("HTTP"));
                }
            }
        }
    }

    /** SetDefaults_Container: Always for ":latest" or no tag, IfNotPresent otherwise; digests count as tags. */
    static String pullPolicy(String image) {
        if (image.contains("@")) {
            return "IfNotPresent";
        }
        String last = image.substring(image.lastIndexOf('/') + 1);
        int colon = last.lastIndexOf(':');
        if (colon < 0 || last.substring(colon + 1).equals("latest")) {
            return "Always";
        }
        return "IfNotPresent";
    }

    private static ObjectNode obj(ObjectNode parent, String field) {
        JsonNode n = parent.get(field);
        if (n instanceof ObjectNode o) {
            return o;
        }
        return parent.putObject(field);
    }

    /** Rewrites every quantity in maps such as requests/limits/capacity to canonical form. */
    static void canonicalQuantities(ResourceType t, JsonNode node, String fieldName) {
        if (node instanceof ObjectNode o) {
            boolean quantities = fieldName != null && QUANTITY_MAPS.contains(fieldName);
            Iterator<Map.Entry<String, JsonNode>> it = o.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                JsonNode v = e.getValue();
                if (quantities && (v.isTextual() || v.isNumber())) {
                    e.setValue(o.textNode(canonical(t, v.isTextual() ? v.asText() : v.numberValue().toString())));
                } else {
                    canonicalQuantities(t, v, e.getKey());
                }
            }
        } else if (node instanceof ArrayNode a) {
            for (JsonNode v : a) {
                canonicalQuantities(t, v, null);
            }
        }
    }

    private static String canonical(ResourceType t, String q) {
        try {
            return Quantities.canonical(q);
        } catch (IllegalArgumentException e) {
            // the decoder refuses it before validation, as a 400 (apimachinery serializer error)
            throw ApiError.of(400, "BadRequest", t.kind() + " in version \"" + t.version() + "\" cannot be handled as a "
                    + t.kind() + ": " + e.getMessage(), null);
        }
    }
}
