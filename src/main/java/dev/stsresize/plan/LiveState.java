package dev.stsresize.plan;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** What the cluster holds, as raw JSON trees: StatefulSets, claims and StorageClasses. */
public record LiveState(List<ObjectNode> statefulSets, List<ObjectNode> claims, List<ObjectNode> storageClasses) {
    public LiveState {
        statefulSets = List.copyOf(statefulSets);
        claims = List.copyOf(claims);
        storageClasses = List.copyOf(storageClasses);
    }
}
