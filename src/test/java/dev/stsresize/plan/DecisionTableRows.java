package dev.stsresize.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/** How every runner of the decision table (src/test/resources/decision-table) turns a row into the live state. */
public final class DecisionTableRows {
    private DecisionTableRows() {}

    /**
     * The row's live StatefulSet, claims and StorageClasses; its {@code csiDrivers} when the row has the key
     * (an empty list is "none in the cluster"), else CSIDrivers unknown, as when they cannot be read.
     */
    public static LiveState liveState(JsonNode row) {
        List<ObjectNode> live = row.path("live").isObject() ? List.of((ObjectNode) row.get("live")) : List.of();
        boolean driversKnown = row.path("csiDrivers").isArray();
        return new LiveState(live, objects(row.path("claims")), objects(row.path("classes")), true,
                objects(row.path("csiDrivers")), driversKnown);
    }

    public static List<ObjectNode> objects(JsonNode array) {
        List<ObjectNode> out = new ArrayList<>();
        array.forEach(n -> out.add((ObjectNode) n));
        return out;
    }
}
