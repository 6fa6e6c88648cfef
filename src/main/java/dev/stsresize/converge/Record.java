package dev.stsresize.converge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a run writes down before its first write, and what {@code resume} needs to finish it: the live
 * StatefulSet as it was (the backup a failed re-apply restores), the exact object to re-apply, the
 * field manager, the claims' targets (and their requests before the run, where known: a record of an
 * older version has none) and the phase reached. Kept in the run's {@link RecordSecret}
 * (phase in the Lease) and in the local journal. Written by someone else as far as any reader knows:
 * {@link RunRecords} checks it before anything acts on it.
 */
public record Record(String server, String namespace, String name, String uid, String holder, String phase,
        String startedAt, String fieldManager, ObjectNode live, ObjectNode reapply, Map<String, String> claimTargets,
        Map<String, String> claimsBefore, CopyProgress copy) {

    public Record(String server, String namespace, String name, String uid, String holder, String phase, String startedAt,
            String fieldManager, ObjectNode live, ObjectNode reapply, Map<String, String> claimTargets, Map<String, String> claimsBefore) {
        this(server, namespace, name, uid, holder, phase, startedAt, fieldManager, live, reapply, claimTargets, claimsBefore, null);
    }

    public Record {
        // in the order given (template, then ordinal): the claims are grown and reported in it
        claimTargets = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(claimTargets));
        claimsBefore = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(claimsBefore == null ? Map.of() : claimsBefore));
    }

    public Record withPhase(String p) {
        return new Record(server, namespace, name, uid, holder, p, startedAt, fieldManager, live, reapply, claimTargets, claimsBefore, copy);
    }

    public Record withHolder(String h) {
        return new Record(server, namespace, name, uid, h, phase, startedAt, fieldManager, live, reapply, claimTargets, claimsBefore, copy);
    }

    /** The same record re-applying {@code object} (built from the operator's manifest) for the claims {@code targets}. */
    public Record withReapply(ObjectNode object, Map<String, String> targets) {
        return new Record(server, namespace, name, uid, holder, phase, startedAt, fieldManager, live, object, targets, claimsBefore, copy);
    }

    /** The same record with the copy migration's progress ({@code null}: a run that grows in place). */
    public Record withCopy(CopyProgress c) {
        return new Record(server, namespace, name, uid, holder, phase, startedAt, fieldManager, live, reapply, claimTargets, claimsBefore, c);
    }


    /**
     * The same record standing for the StatefulSet {@code sts} this run re-applied: its UID the next orphan delete's
     * precondition, and the object itself the backup (a copy re-applies after each ordinal, and resume compares the
     * StatefulSet it finds with the one recorded).
     */
    public Record withStanding(ObjectNode sts) {
        ObjectNode backup = sts.deepCopy();
        ((ObjectNode) backup.path("metadata")).remove("managedFields");
        return new Record(server, namespace, name, Objects.uid(sts), holder, phase, startedAt, fieldManager, backup, reapply, claimTargets,
                claimsBefore, copy);
    }

    /** Whether the run is a copy migration. */
    public boolean copies() {
        return copy != null;
    }

    public ObjectNode toJson() {
        ObjectNode o = Objects.MAPPER.createObjectNode();
        o.put("apiVersion", "stsresize/v1").put("kind", "Journal");
        o.put("server", server).put("namespace", namespace).put("name", name).put("uid", uid).put("holder", holder)
                .put("phase", phase).put("startedAt", startedAt).put("fieldManager", fieldManager);
        o.set("live", live);
        o.set("reapply", reapply);
        ObjectNode claims = o.putObject("claimTargets");
        claimTargets.forEach(claims::put);
        if (copy != null) {
            o.set("copy", copy.toJson());
        }
        if (!claimsBefore.isEmpty()) {
            ObjectNode before = o.putObject("claimsBefore");
            claimsBefore.forEach(before::put);
        }
        return o;
    }

    public static Record fromJson(JsonNode o) {
        Map<String, String> claims = new LinkedHashMap<>();
        o.path("claimTargets").fields().forEachRemaining(e -> claims.put(e.getKey(), e.getValue().asText()));
        return new Record(o.path("server").asText(""), o.path("namespace").asText(), o.path("name").asText(),
                o.path("uid").asText(), o.path("holder").asText(), o.path("phase").asText(), o.path("startedAt").asText(""),
                o.path("fieldManager").asText("kubectl"), object(o.path("live")), object(o.path("reapply")), claims,
                sizesBefore(o.path("claimsBefore"), claims), CopyProgress.fromJson(o.get("copy"), claims));
    }

    /**
     * The recorded requests before the run, only where they are said: for a claim of the run, as a
     * quantity. Someone else may have written the record; these sizes are only ever shown, never
     * applied, and anything else is left out (the result then says the size before is unknown).
     */
    private static Map<String, String> sizesBefore(JsonNode before, Map<String, String> claims) {
        Map<String, String> sizes = new LinkedHashMap<>();
        before.fields().forEachRemaining(e -> {
            if (claims.containsKey(e.getKey()) && e.getValue().isTextual()
                    && dev.stsresize.plan.Quantity.parseOrNull(e.getValue().asText()) != null) {
                sizes.put(e.getKey(), e.getValue().asText());
            }
        });
        return sizes;
    }

    private static ObjectNode object(JsonNode n) {
        return n instanceof ObjectNode on ? on : null;
    }
}
