package dev.stsresize.cluster;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * StorageClasses as listed, or the fact that this user may not list them. Forbidden is not an
 * error: expandability is then left to the server's dry run of each claim patch.
 */
public sealed interface StorageClassList {
    record Visible(List<ObjectNode> items) implements StorageClassList {
        public Visible {
            items = List.copyOf(items);
        }
    }

    /** The 403's Status message, verbatim. */
    record Forbidden(String message) implements StorageClassList {}
}
