package dev.stsresize.plan;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * What the cluster holds, as raw JSON trees: StatefulSets, claims, StorageClasses and CSIDrivers.
 *
 * @param storageClassesKnown false when the StorageClasses could not be read (403): whether a class
 *     allows expansion is then unknown, never assumed shown as allowed
 * @param csiDriversKnown false when the CSIDrivers could not be read (403, or a snapshot holding none):
 *     whether a CSI class has a resizer is then a warning, never a refusal
 * @param volumes the PersistentVolumes, read only for a copy into a no-provisioner class ({@link PersistentVolumes})
 */
public record LiveState(List<ObjectNode> statefulSets, List<ObjectNode> claims, List<ObjectNode> storageClasses,
        boolean storageClassesKnown, List<ObjectNode> csiDrivers, boolean csiDriversKnown, PersistentVolumes volumes) {
    public LiveState {
        statefulSets = List.copyOf(statefulSets);
        claims = List.copyOf(claims);
        storageClasses = List.copyOf(storageClasses);
        csiDrivers = List.copyOf(csiDrivers);
        volumes = volumes == null ? PersistentVolumes.NOT_READ : volumes;
    }

    /** No PersistentVolumes read: no copy into a no-provisioner class. */
    public LiveState(List<ObjectNode> statefulSets, List<ObjectNode> claims, List<ObjectNode> storageClasses,
            boolean storageClassesKnown, List<ObjectNode> csiDrivers, boolean csiDriversKnown) {
        this(statefulSets, claims, storageClasses, storageClassesKnown, csiDrivers, csiDriversKnown, PersistentVolumes.NOT_READ);
    }

    /** The same state with the PersistentVolumes a copy into a no-provisioner class reads. */
    public LiveState withVolumes(PersistentVolumes v) {
        return new LiveState(statefulSets, claims, storageClasses, storageClassesKnown, csiDrivers, csiDriversKnown, v);
    }

    /** CSIDrivers unknown: a CSI class's resizer is unchecked and warned of. */
    public LiveState(List<ObjectNode> statefulSets, List<ObjectNode> claims, List<ObjectNode> storageClasses,
            boolean storageClassesKnown) {
        this(statefulSets, claims, storageClasses, storageClassesKnown, List.of(), false);
    }

    /** CSIDrivers unknown: a CSI class's resizer is unchecked and warned of. */
    public LiveState(List<ObjectNode> statefulSets, List<ObjectNode> claims, List<ObjectNode> storageClasses) {
        this(statefulSets, claims, storageClasses, true);
    }

    /** The classes and drivers a decision reads, without the StatefulSets and claims. */
    public StorageFacts storage() {
        return new StorageFacts(storageClasses, storageClassesKnown,
                csiDriversKnown ? Resizers.of(csiDrivers) : Resizers.unknown(), volumes);
    }
}
