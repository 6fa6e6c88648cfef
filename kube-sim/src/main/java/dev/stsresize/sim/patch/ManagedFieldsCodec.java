package dev.stsresize.sim.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** metadata.managedFields to {@link ManagedEntry} and back, in the entry shape and order the server writes. */
final class ManagedFieldsCodec {
    /** sortEncodedManagedFields: by operation (Apply first), time, manager, apiVersion, subresource. */
    private static final Comparator<ManagedEntry> ORDER = Comparator
            .comparing((ManagedEntry e) -> e.id().operation())
            .thenComparing(e -> e.time() == null ? "" : e.time())
            .thenComparing(e -> e.id().manager())
            .thenComparing(e -> e.apiVersion() == null ? "" : e.apiVersion())
            .thenComparing(e -> e.id().subresource());

    private ManagedFieldsCodec() {}

    /** The entries of an object's metadata.managedFields (none when absent). */
    static List<ManagedEntry> read(JsonNode object) {
        List<ManagedEntry> entries = new ArrayList<>();
        JsonNode list = object == null ? null : object.path("metadata").get("managedFields");
        if (list == null || !list.isArray()) {
            return entries;
        }
        for (JsonNode e : list) {
            ManagedEntry.Id id = new ManagedEntry.Id(e.path("manager").asText(""), e.path("operation").asText(""),
                    e.path("subresource").asText(""));
            entries.add(new ManagedEntry(id, e.path("apiVersion").asText(""), e.hasNonNull("time") ? e.get("time").asText() : null,
                    FieldsV1.decode(e.get("fieldsV1"))));
        }
        return entries;
    }

    /** Writes the entries, empty ones dropped, into {@code object}'s metadata (removing the field when none remain). */
    static void write(ObjectNode object, List<ManagedEntry> entries) {
        List<ManagedEntry> kept = new ArrayList<>(entries.stream().filter(e -> !e.fields().isEmpty()).toList());
        kept.sort(ORDER);
        ObjectNode metadata = object.has("metadata") && object.get("metadata").isObject()
                ? (ObjectNode) object.get("metadata") : object.putObject("metadata");
        if (kept.isEmpty()) {
            metadata.remove("managedFields");
            return;
        }
        ArrayNode list = metadata.putArray("managedFields");
        for (ManagedEntry e : kept) {
            ObjectNode o = list.addObject();
            o.put("manager", e.id().manager());
            o.put("operation", e.id().operation());
            o.put("apiVersion", e.apiVersion());
            if (e.time() != null) {
                o.put("time", e.time());
            }
            o.put("fieldsType", "FieldsV1");
            o.set("fieldsV1", FieldsV1.encode(e.fields()));
            if (!e.id().subresource().isEmpty()) {
                o.put("subresource", e.id().subresource());
            }
        }
    }
}
