package dev.stsresize.sim.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.store.ResourceType;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Server-side printing (meta.k8s.io/v1 Table) for {@code kubectl get}, with the columns of
 * pkg/printers/internalversion/printers.go for the kinds the plugin shows, and the default
 * Name/Created At table (apiserver's DefaultTableConvertor) for the rest.
 */
final class Tables {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private Tables() {}

    static boolean wanted(String accept) {
        return accept != null && accept.contains("as=Table");
    }

    static ObjectNode table(ResourceType t, List<ObjectNode> items, String resourceVersion, Instant now) {
        return table(t, items, resourceVersion, now, true);
    }

    static ObjectNode table(ResourceType t, List<ObjectNode> items, String resourceVersion, Instant now, boolean withColumns) {
        ObjectNode table = JSON.objectNode();
        table.put("kind", "Table");
        table.put("apiVersion", "meta.k8s.io/v1");
        table.putObject("metadata").put("resourceVersion", resourceVersion);
        ArrayNode cols = table.putArray("columnDefinitions");
        List<String[]> columns = withColumns ? columns(t) : List.of();
        for (String[] c : columns) {
            ObjectNode col = cols.addObject();
            col.put("name", c[0]);
            col.put("type", c[1]);
            col.put("format", c[0].equals("Name") ? "name" : "");
            col.put("description", c[0]);
            col.put("priority", 0);
        }
        ArrayNode rows = table.putArray("rows");
        for (ObjectNode o : items) {
            ObjectNode row = rows.addObject();
            ArrayNode cells = row.putArray("cells");
            cells(t, o, now).forEach(cells::add);
            ObjectNode partial = row.putObject("object");
            partial.put("kind", "PartialObjectMetadata");
            partial.put("apiVersion", "meta.k8s.io/v1");
            ObjectNode meta = o.path("metadata").deepCopy();
            meta.remove("managedFields");
            partial.set("metadata", meta);
        }
        return table;
    }

    private static List<String[]> columns(ResourceType t) {
        return switch (t.kind()) {
            case "StatefulSet" -> List.of(col("Name"), col("Ready"), col("Age"));
            case "PersistentVolumeClaim" -> List.of(col("Name"), col("Status"), col("Volume"), col("Capacity"),
                    col("Access Modes"), col("StorageClass"), col("VolumeAttributesClass"), col("Age"));
            case "Pod" -> List.of(col("Name"), col("Ready"), col("Status"), col("Restarts"), col("Age"));
            case "StorageClass" -> List.of(col("Name"), col("Provisioner"), col("ReclaimPolicy"), col("VolumeBindingMode"),
                    col("AllowVolumeExpansion"), col("Age"));
            case "Namespace" -> List.of(col("Name"), col("Status"), col("Age"));
            // pkg/printers/internalversion/printers.go csiDriverColumnDefinitions
            case "CSIDriver" -> List.of(col("Name"), new String[] {"AttachRequired", "boolean"}, new String[] {"PodInfoOnMount", "boolean"},
                    new String[] {"StorageCapacity", "boolean"}, col("TokenRequests"), new String[] {"RequiresRepublish", "boolean"},
                    col("Modes"), col("Age"));
            // part 2: what the controllers write, with the columns of pkg/printers/internalversion/printers.go
            case "Event" -> List.of(col("Last Seen"), col("Type"), col("Reason"), col("Object"), col("Message"));
            case "PersistentVolume" -> List.of(col("Name"), col("Capacity"), col("Access Modes"), col("Reclaim Policy"),
                    col("Status"), col("Claim"), col("StorageClass"), col("VolumeAttributesClass"), col("Reason"), col("Age"));
            case "ControllerRevision" -> List.of(col("Name"), col("Controller"), col("Revision"), col("Age"));
            case "PodDisruptionBudget" -> List.of(col("Name"), col("Min Available"), col("Max Unavailable"),
                    col("Allowed Disruptions"), col("Age"));
            default -> List.of(col("Name"), new String[] {"Created At", "date"});
        };
    }

    private static String[] col(String name) {
        return new String[] {name, "string"};
    }

    private static List<String> cells(ResourceType t, ObjectNode o, Instant now) {
        String name = o.path("metadata").path("name").asText();
        String age = age(o.path("metadata").path("creationTimestamp").asText(""), now);
        JsonNode spec = o.path("spec");
        JsonNode status = o.path("status");
        return switch (t.kind()) {
            case "StatefulSet" -> List.of(name, status.path("readyReplicas").asInt(0) + "/" + spec.path("replicas").asInt(1), age);
            case "PersistentVolumeClaim" -> List.of(name, status.path("phase").asText(""), spec.path("volumeName").asText(""),
                    status.path("capacity").path("storage").asText(""), accessModes(status.path("accessModes")),
                    spec.path("storageClassName").asText(""), spec.path("volumeAttributesClassName").asText("<unset>"), age);
            case "Pod" -> List.of(name, readyContainers(o), o.path("metadata").has("deletionTimestamp") ? "Terminating"
                    : status.path("phase").asText(""), restarts(status), age);
            case "StorageClass" -> List.of(name, o.path("provisioner").asText(""), o.path("reclaimPolicy").asText("Delete"),
                    o.path("volumeBindingMode").asText("Immediate"), Boolean.toString(o.path("allowVolumeExpansion").asBoolean(false)), age);
            case "Namespace" -> List.of(name, status.path("phase").asText("Active"), age);
            case "CSIDriver" -> csiDriver(spec, name, age);
            case "Event" -> event(o, now);
            case "PersistentVolume" -> {
                JsonNode ref = spec.path("claimRef");
                yield List.of(name, spec.path("capacity").path("storage").asText(""), accessModes(spec.path("accessModes")),
                        spec.path("persistentVolumeReclaimPolicy").asText(""), status.path("phase").asText(""),
                        ref.isMissingNode() ? "" : ref.path("namespace").asText("") + "/" + ref.path("name").asText(""),
                        spec.path("storageClassName").asText(""), spec.path("volumeAttributesClassName").asText("<unset>"),
                        status.path("reason").asText(""), age);
            }
            case "ControllerRevision" -> {
                JsonNode ref = o.path("metadata").path("ownerReferences").path(0);
                yield List.of(name, ref.isMissingNode() ? "<none>" : ref.path("kind").asText("").toLowerCase(java.util.Locale.ROOT)
                        + "." + ref.path("apiVersion").asText("").replaceAll("/.*", "") + "/" + ref.path("name").asText(""),
                        o.path("revision").asText("0"), age);
            }
            case "PodDisruptionBudget" -> List.of(name, spec.path("minAvailable").asText("N/A"),
                    spec.path("maxUnavailable").asText("N/A"), status.path("disruptionsAllowed").asText("0"), age);
            default -> List.of(name, o.path("metadata").path("creationTimestamp").asText(""));
        };
    }

    /** printEvent: LAST SEEN from the series, lastTimestamp or eventTime; OBJECT as kind/name in lower case. */
    private static List<String> event(ObjectNode e, Instant now) {
        boolean core = e.has("involvedObject") || !e.has("regarding");
        JsonNode ref = core ? e.path("involvedObject") : e.path("regarding");
        String last = e.path("series").path("lastObservedTime").asText("");
        if (last.isEmpty()) {
            last = e.path(core ? "lastTimestamp" : "deprecatedLastTimestamp").asText("");
        }
        if (last.isEmpty()) {
            last = e.path("eventTime").asText("");
        }
        String seen = last.isEmpty() ? "<unknown>" : age(Instant.parse(last).toString(), now);
        return List.of(seen, e.path("type").asText(""), e.path("reason").asText(""),
                ref.path("kind").asText("").toLowerCase(java.util.Locale.ROOT) + "/" + ref.path("name").asText(""),
                e.path(core ? "message" : "note").asText(""));
    }

    /** printers.go printCSIDriver: the token requests' audiences ("<unset>" without any) and the lifecycle modes, comma-joined. */
    private static List<String> csiDriver(JsonNode spec, String name, String age) {
        List<String> audiences = new java.util.ArrayList<>();
        spec.path("tokenRequests").forEach(r -> audiences.add(r.path("audience").asText("")));
        List<String> modes = new java.util.ArrayList<>();
        spec.path("volumeLifecycleModes").forEach(m -> modes.add(m.asText()));
        return List.of(name, Boolean.toString(spec.path("attachRequired").asBoolean(true)),
                Boolean.toString(spec.path("podInfoOnMount").asBoolean(false)), Boolean.toString(spec.path("storageCapacity").asBoolean(false)),
                audiences.isEmpty() ? "<unset>" : String.join(",", audiences), Boolean.toString(spec.path("requiresRepublish").asBoolean(false)),
                String.join(",", modes), age);
    }

    private static String accessModes(JsonNode modes) {
        StringBuilder b = new StringBuilder();
        for (JsonNode m : modes) {
            String s = switch (m.asText()) {
                case "ReadWriteOnce" -> "RWO";
                case "ReadOnlyMany" -> "ROX";
                case "ReadWriteMany" -> "RWX";
                case "ReadWriteOncePod" -> "RWOP";
                default -> m.asText();
            };
            b.append(b.length() == 0 ? "" : ",").append(s);
        }
        return b.toString();
    }

    private static String readyContainers(ObjectNode pod) {
        int total = pod.path("spec").path("containers").size();
        int ready = 0;
        for (JsonNode c : pod.path("status").path("containerStatuses")) {
            if (c.path("ready").asBoolean(false)) {
                ready++;
            }
        }
        return ready + "/" + total;
    }

    private static String restarts(JsonNode status) {
        int n = 0;
        for (JsonNode c : status.path("containerStatuses")) {
            n += c.path("restartCount").asInt(0);
        }
        return Integer.toString(n);
    }

    /** duration.HumanDuration, shortened: 45s, 12m, 5h, 3d. */
    static String age(String created, Instant now) {
        if (created.isEmpty()) {
            return "<unknown>";
        }
        Duration d = Duration.between(Instant.parse(created), now);
        long s = Math.max(0, d.getSeconds());
        if (s < 120) {
            return s + "s";
        }
        if (s < 3600 * 3) {
            return (s / 60) + "m";
        }
        if (s < 86400 * 2) {
            return (s / 3600) + "h";
        }
        return (s / 86400) + "d";
    }
}
