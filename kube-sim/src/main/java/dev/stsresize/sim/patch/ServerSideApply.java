package dev.stsresize.sim.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * Server-side apply, in the order of the apiserver's field manager chain: the object type check
 * (versioncheck.go), the before-first-apply owner of an untracked object (skipnonapplied.go), the
 * managedFields check (structuredmerge.go), then merge.Updater.Apply: merge, own what the config
 * names, prune what this manager stopped naming, and move or refuse ownership of changed fields —
 * for "kubectl", conflicts that its client-side apply annotation explains are forced through and
 * the annotation kept in step (lastappliedmanager.go, lastappliedupdater.go).
 */
final class ServerSideApply {
    static final String BEFORE_FIRST_APPLY = "before-first-apply";

    private ServerSideApply() {}

    static ObjectNode apply(ObjectNode live, ObjectNode applied, String manager, boolean force, String time) {
        String apiVersion = applied.path("apiVersion").asText("");
        String kind = applied.path("kind").asText("");
        if (live != null && (!apiVersion.equals(live.path("apiVersion").asText()) || !kind.equals(live.path("kind").asText()))) {
            throw PatchErrors.badRequest("invalid object type: " + gvk(apiVersion, kind));
        }
        JsonNode sentManagedFields = applied.path("metadata").get("managedFields");
        ObjectFields fields = new ObjectFields(kind);
        JsonNode before = UpdateRecorder.bare(live);
        List<ManagedEntry> entries = ManagedFieldsCodec.read(live);
        if (live != null && entries.isEmpty()) {
            entries = UpdateRecorder.entries(PatchTrees.NODES.objectNode(), before, entries, kind, BEFORE_FIRST_APPLY, "", apiVersion, time);
        }
        if (sentManagedFields != null && !sentManagedFields.isNull()) {
            throw PatchErrors.badRequest("metadata.managedFields must be nil");
        }

        ManagedEntry.Id self = new ManagedEntry.Id(manager, ManagedEntry.APPLY, "");
        ManagedEntry last = Ownership.find(entries, self);
        FieldSet named = TrackedFields.of(fields.toFieldSet(applied), "");
        entries = Ownership.put(entries, new ManagedEntry(self, apiVersion, last == null ? time : last.time(), named));

        ApplyMerge merge = new ApplyMerge(kind);
        ObjectNode merged = merge.merge((ObjectNode) before, applied);
        if (last != null) {
            merge.remove(merged, abandoned(last.fields(), named, entries));
        }
        Ownership.Outcome o = Ownership.transfer(fields, before, merged, entries, self, "");
        if (!force && !o.conflicts().isEmpty()) {
            List<ApplyConflicts.Conflict> left = LastApplied.unresolved(o.conflicts(), manager, live, fields);
            if (!left.isEmpty()) {
                throw ApplyConflicts.error(left);
            }
        }
        entries = o.entries();
        boolean changed = !PatchTrees.same(before, merged) || last == null || !last.fields().equals(named);
        if (changed) {
            entries = Ownership.put(entries, new ManagedEntry(self, apiVersion, time, named));
        }
        if (manager.equals(LastApplied.KUBECTL)) {
            LastApplied.sync(merged, applied);
        }
        ManagedFieldsCodec.write(merged, entries);
        return merged;
    }

    /**
     * Fields this manager applied last time and not now, that no manager (itself included) still
     * owns at or below. The key fields of an item are its identity: they go only with the item.
     */
    private static FieldSet abandoned(FieldSet last, FieldSet named, List<ManagedEntry> entries) {
        return last.difference(named)
                .filter(path -> !isKeyField(path))
                .filter(path -> entries.stream().noneMatch(e -> e.fields().hasAtOrBelow(path)));
    }

    private static boolean isKeyField(List<PathElement> path) {
        return path.size() >= 2 && path.get(path.size() - 2) instanceof PathElement.Key key
                && path.get(path.size() - 1) instanceof PathElement.Field field && key.fields().containsKey(field.name());
    }

    /** schema.GroupVersionKind.String(): "apps/v1, Kind=StatefulSet", "/v1, Kind=Pod". */
    private static String gvk(String apiVersion, String kind) {
        String gv = apiVersion.contains("/") ? apiVersion : "/" + apiVersion;
        return gv + ", Kind=" + kind;
    }
}
