package dev.stsresize.plan;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * The cluster-wide facts a claim's growth depends on: its StorageClass (does it allow expansion?) and
 * whether its provisioner has a resizer; for a copy into a no-provisioner class, the PersistentVolumes.
 *
 * @param classesKnown false when the StorageClasses could not be read: a claim with a class is then
 *     decided as if it may expand (its dry-run patch decides), and its resizer is not checked
 * @param volumes the PersistentVolumes, read only for a copy into a no-provisioner class
 */
public record StorageFacts(List<ObjectNode> classes, boolean classesKnown, Resizers resizers, PersistentVolumes volumes) {
    public StorageFacts {
        classes = List.copyOf(classes);
        volumes = volumes == null ? PersistentVolumes.NOT_READ : volumes;
    }

    public StorageFacts(List<ObjectNode> classes, boolean classesKnown, Resizers resizers) {
        this(classes, classesKnown, resizers, PersistentVolumes.NOT_READ);
    }
}
