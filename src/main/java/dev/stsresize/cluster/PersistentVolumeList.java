package dev.stsresize.cluster;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * PersistentVolumes as listed, or the fact that this user may not list them (they are cluster-scoped: a namespace's
 * admin usually may not). Forbidden is not an error: a copy into a no-provisioner class then says what to create.
 */
public sealed interface PersistentVolumeList {
    record Visible(List<ObjectNode> items) implements PersistentVolumeList {
        public Visible {
            items = List.copyOf(items);
        }
    }

    /** The 403's Status message, verbatim. */
    record Forbidden(String message) implements PersistentVolumeList {}
}
