package dev.stsresize.sim.patch;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * How a write moves ownership between managers, as structured-merge-diff merge.Updater.update:
 * every other manager loses the fields the write changed and the fields it removed. The changed
 * fields others owned are the conflicts an apply without force fails on.
 */
final class Ownership {
    /**
     * The managers after the write (as if forced), what the write changed, and the fields it took
     * from other managers: an apply without force must fail on those.
     */
    record Outcome(List<ManagedEntry> entries, ObjectFields.Comparison comparison, List<ApplyConflicts.Conflict> conflicts) {}

    private Ownership() {}

    static Outcome transfer(ObjectFields fields, JsonNode before, JsonNode after, List<ManagedEntry> entries,
            ManagedEntry.Id writer, String subresource) {
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
        List<ManagedEntry> out = new ArrayList<>();
        for (ManagedEntry e : entries) {
            out.add(e.id().equals(writer) ? e : e.withFields(e.fields().difference(changed).difference(c.removed())));
        }
        return new Outcome(out, c, conflicts);
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
