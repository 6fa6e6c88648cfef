package dev.stsresize.sim.patch;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The 409 of a server-side apply that would change fields other managers own, worded as
 * k8s.io/apimachinery/pkg/util/managedfields/internal/conflict.go NewConflictError words it
 * ("Apply failed with 1 conflict: conflict with \"m\": .path", or for several, per manager sorted
 * by identifier, "conflicts with \"m\":\n- .path") and shaped as errors.NewApplyConflict
 * (details hold only the causes).
 */
final class ApplyConflicts {
    /** One manager's conflicting fields. */
    record Conflict(ManagedEntry owner, FieldSet fields) {
        String identifier() {
            return owner.id().identifier(owner.apiVersion());
        }

        String printed() {
            return owner.id().printed(owner.apiVersion());
        }
    }

    private ApplyConflicts() {}

    static ApiError error(List<Conflict> conflicts) {
        // Go collects conflicts from a map; sorting managers keeps the causes in a stable order
        List<Conflict> sorted = new ArrayList<>(conflicts);
        sorted.sort(Comparator.comparing(Conflict::identifier));
        ObjectNode details = PatchTrees.NODES.objectNode();
        ArrayNode causes = details.putArray("causes");
        List<String> lines = new ArrayList<>();
        for (Conflict c : sorted) {
            lines.add("conflicts with " + c.printed() + ":");
            for (List<PathElement> path : c.fields().paths()) {
                String field = FieldSet.text(path);
                ObjectNode cause = causes.addObject();
                cause.put("reason", "FieldManagerConflict");
                cause.put("message", "conflict with " + c.printed());
                cause.put("field", field);
                lines.add("- " + field);
            }
        }
        int count = causes.size();
        String message = count == 1
                ? "Apply failed with 1 conflict: " + causes.get(0).get("message").asText() + ": " + causes.get(0).get("field").asText()
                : "Apply failed with " + count + " conflicts: " + String.join("\n", lines);
        return ApiError.of(409, "Conflict", message, details);
    }
}
