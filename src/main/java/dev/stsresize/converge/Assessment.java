package dev.stsresize.converge;

import java.util.List;
import java.util.Set;

/**
 * Every declared StatefulSet assessed, in namespace/name order, with what was said about the whole
 * run (StorageClasses not listable), and the namespaces where Leases are forbidden (local journal only).
 */
public record Assessment(List<Assessed> items, List<String> notes, Set<String> namespacesWithoutLeases) {
    public Assessment {
        items = List.copyOf(items);
        notes = List.copyOf(notes);
        namespacesWithoutLeases = Set.copyOf(namespacesWithoutLeases);
    }
}
