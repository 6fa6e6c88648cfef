package dev.stsresize.sim.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * Records a non-apply write in managedFields, as the apiserver's field manager chain does for
 * create, update and the json/merge/strategic patches.
 */
final class UpdateRecorder {
    private UpdateRecorder() {}

    static ObjectNode record(ObjectNode before, ObjectNode updated, String manager, String subresource, String time) {
        String sub = subresource == null ? "" : subresource;
        List<ManagedEntry> entries = baseline(before, updated, sub);
        boolean created = before == null || !before.path("metadata").hasNonNull("uid");
        if (entries.isEmpty() && !created) {
            // skipnonapplied.go: an existing object nobody tracks stays untracked until its first apply
            removeManagedFields(updated);
            return updated;
        }
        List<ManagedEntry> recorded = entries(bare(before), bare(updated), entries, kindOf(updated, before), manager, sub,
                updated.path("apiVersion").asText(""), time);
        ManagedFieldsCodec.write(updated, recorded);
        return updated;
    }

    /**
     * The update step proper (managedfieldsupdater.go over merge.Updater.Update): the write's
     * changes are taken from everyone else and joined to the writer's Update entry, whose time
     * moves only when the write changed something.
     */
    static List<ManagedEntry> entries(JsonNode before, JsonNode after, List<ManagedEntry> entries, String kind,
            String manager, String subresource, String apiVersion, String time) {
        ManagedEntry.Id writer = new ManagedEntry.Id(manager, ManagedEntry.UPDATE, subresource);
        ManagedEntry.Id currentOperation = new ManagedEntry.Id("\u0000current-operation", ManagedEntry.UPDATE, subresource);
        Ownership.Outcome o = Ownership.transfer(new ObjectFields(kind), before, after, entries, currentOperation, subresource);
        FieldSet changed = o.comparison().changed();
        if (changed.isEmpty()) {
            return o.entries();
        }
        ManagedEntry previous = Ownership.find(o.entries(), writer);
        FieldSet owned = previous == null ? changed : previous.fields().union(changed);
        return Ownership.put(o.entries(), new ManagedEntry(writer, apiVersion, time, owned));
    }

    /**
     * decodeLiveOrNew in fieldmanager.go: managedFields sent with a main-resource write replace the
     * live ones (that is how a client resets them); absent or empty, the live ones stand.
     */
    private static List<ManagedEntry> baseline(ObjectNode before, ObjectNode updated, String subresource) {
        List<ManagedEntry> sent = ManagedFieldsCodec.read(updated);
        return subresource.isEmpty() && !sent.isEmpty() ? sent : ManagedFieldsCodec.read(before);
    }

    /** A copy to work on, {} for an object that does not exist yet; managedFields in it are never tracked nor kept. */
    static JsonNode bare(ObjectNode object) {
        return object == null ? PatchTrees.NODES.objectNode() : object.deepCopy();
    }

    private static void removeManagedFields(ObjectNode object) {
        JsonNode metadata = object.get("metadata");
        if (metadata != null && metadata.isObject()) {
            ((ObjectNode) metadata).remove("managedFields");
        }
    }

    private static String kindOf(ObjectNode updated, ObjectNode before) {
        String kind = updated.path("kind").asText("");
        return kind.isEmpty() && before != null ? before.path("kind").asText("") : kind;
    }
}
