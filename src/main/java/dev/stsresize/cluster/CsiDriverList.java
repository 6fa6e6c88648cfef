package dev.stsresize.cluster;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * CSIDrivers as listed, or the fact that this user may not list them. Forbidden is not an error:
 * whether a CSI class has a resizer is then unchecked and warned of, never refused.
 */
public sealed interface CsiDriverList {
    record Visible(List<ObjectNode> items) implements CsiDriverList {
        public Visible {
            items = List.copyOf(items);
        }
    }

    /** The 403's Status message, verbatim. */
    record Forbidden(String message) implements CsiDriverList {}
}
