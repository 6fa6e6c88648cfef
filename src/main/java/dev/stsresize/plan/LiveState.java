package dev.stsresize.plan;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * What the cluster holds, as raw JSON trees: StatefulSets, claims and StorageClasses.
 *
 * @param storageClassesKnown false when the StorageClasses could not be read (403): whether a class
 *     allows expansion is then unknown, never assumed shown as allowed
 */
public record LiveState(List<ObjectNode> statefulSets, List<ObjectNode> claims, List<ObjectNode> storageClasses,
        boolean storageClassesKnown) {
    public LiveState {
        statefulSets = List.copyOf(statefulSets);
        claims = List.copyOf(claims);
        storageClasses = List.copyOf(storageClasses);
    }

    public LiveState(List<ObjectNode> statefulSets, List<ObjectNode> claims, List<ObjectNode> storageClasses) {
        this(statefulSets, claims, storageClasses, true);
    }
}
