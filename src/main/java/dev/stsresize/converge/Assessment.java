package dev.stsresize.converge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Set;

/**
 * Every declared StatefulSet assessed, in namespace/name order, with what was said about the whole
 * run (StorageClasses not listable), the namespaces where Leases are forbidden (local journal only),
 * and the claims it read (the UI shows their conditions without listing them again).
 */
public record Assessment(List<Assessed> items, List<String> notes, Set<String> namespacesWithoutLeases, List<ObjectNode> claims) {
    public Assessment {
        claims = List.copyOf(claims);
        items = List.copyOf(items);
        notes = List.copyOf(notes);
        namespacesWithoutLeases = Set.copyOf(namespacesWithoutLeases);
    }
}
