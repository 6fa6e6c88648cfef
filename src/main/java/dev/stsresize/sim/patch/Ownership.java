package dev.stsresize.sim.patch;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * How a write moves ownership between managers, as structured-merge-diff merge.Updater.update:
 * every other manager loses the fields the write changed (or the write fails with a conflict when
 * not forced) and the fields it removed.
 */
final class Ownership {
    /** The managers after the write, and what the write changed. */
    record Outcome(List<ManagedEntry> entries, ObjectFields.Comparison comparison) {}

    private Ownership() {}

    static Outcome transfer(ObjectFields fields, JsonNode before, JsonNode after, List<ManagedEntry> entries,
            ManagedEntry.Id writer, String subresource, boolean force) {
        ObjectFields.Comparison c = TrackedFields.of(fields.compare(before, after), subresource);
        FieldSet changed = c.changed();
        List<ApplyConflicts.Conflict> conflicts = new ArrayList<>();
        for (ManagedEntry e : entries) {
            if (!e.id().equals(writer)) {
                FieldSet taken = e.fields().intersection(changed);
                if (!taken.isEmpty()) {
                    conflicts.add(new ApplyConflicts.Conflict(e, taken));
                }
            }
        }
        if (!force && !conflicts.isEmpty()) {
            throw ApplyConflicts.error(conflicts);
        }
        List<ManagedEntry> out = new ArrayList<>();
        for (ManagedEntry e : entries) {
            out.add(e.id().equals(writer) ? e : e.withFields(e.fields().difference(changed).difference(c.removed())));
        }
        return new Outcome(out, c);
    }

    static ManagedEntry find(List<ManagedEntry> entries, ManagedEntry.Id id) {
        return entries.stream().filter(e -> e.id().equals(id)).findFirst().orElse(null);
    }

    /** The entries with {@code entry} in place of the one with its id (or added). */
    static List<ManagedEntry> put(List<ManagedEntry> entries, ManagedEntry entry) {
        List<ManagedEntry> out = new ArrayList<>(entries.stream().filter(e -> !e.id().equals(entry.id())).toList());
        out.add(entry);
        return out;
    }
}
