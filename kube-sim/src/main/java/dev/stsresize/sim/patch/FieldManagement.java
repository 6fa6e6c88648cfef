package dev.stsresize.sim.patch;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;

/**
 * {@code metadata.managedFields} and server-side apply, as pure functions over JSON trees.
 *
 * <p>CONTRACT shared by two helpers: the simulated server calls exactly these signatures.
 * Objects carry {@code metadata.managedFields} entries shaped like the real ones:
 * {@code {"manager":…,"operation":"Apply"|"Update","apiVersion":…,"time":…,"fieldsType":"FieldsV1","fieldsV1":{…},"subresource":…}}.
 */
public final class FieldManagement {
    private FieldManagement() {}

    /**
     * Server-side apply of {@code applied} (the user's partial object) by {@code manager} onto
     * {@code live} (null when the object does not exist yet). Returns the merged object, with the
     * manager's Apply entry in managedFields set to exactly the fields {@code applied} names, and
     * those fields removed from other managers' sets. Fields the manager applied before and no
     * longer names are removed from the object when no other manager owns them.
     *
     * @throws ApiError 409 "Apply failed with N conflict(s): conflict with \"m\": .spec.x" (one
     *     cause per field, reason FieldManagerConflict) when {@code force} is false and another
     *     manager owns a field whose value {@code applied} changes; lists without a merge key
     *     (e.g. {@code .spec.volumeClaimTemplates}) are atomic, so the conflict names the whole list.
     */
    public static ObjectNode apply(ObjectNode live, ObjectNode applied, String manager, boolean force, String time) {
        return ServerSideApply.apply(live, applied, manager, force, time);
    }

    /**
     * Records a non-apply write (create, update, merge/json/strategic patch) by {@code manager}: an
     * {@code operation: Update} entry owning every field it set or changed, those fields taken from
     * other managers. {@code subresource} is "" for the main resource, "status" for status writes.
     * Mutates and returns {@code updated}.
     */
    public static ObjectNode recordUpdate(ObjectNode before, ObjectNode updated, String manager, String subresource, String time) {
        return UpdateRecorder.record(before, updated, manager, subresource, time);
    }
}
