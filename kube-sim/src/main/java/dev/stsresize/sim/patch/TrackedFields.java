package dev.stsresize.sim.patch;

import java.util.List;
import java.util.Set;

/**
 * Which paths ownership ever covers. Metadata the server maintains is never owned (the strip set
 * of internal/stripmeta.go, plus deletionTimestamp and deletionGracePeriodSeconds); and the reset
 * fields of the strategies (GetResetFields) are ignored: status for writes to the main resource,
 * everything but status for writes to /status.
 */
final class TrackedFields {
    private static final Set<String> TOP_LEVEL = Set.of("apiVersion", "kind");
    private static final Set<String> SERVER_METADATA = Set.of("name", "namespace", "creationTimestamp", "selfLink", "uid",
            "clusterName", "generation", "managedFields", "resourceVersion", "deletionTimestamp", "deletionGracePeriodSeconds");

    private TrackedFields() {}

    static FieldSet of(FieldSet set, String subresource) {
        return set.filter(path -> tracked(path, subresource));
    }

    static ObjectFields.Comparison of(ObjectFields.Comparison c, String subresource) {
        return new ObjectFields.Comparison(of(c.added(), subresource), of(c.modified(), subresource), of(c.removed(), subresource));
    }

    static boolean tracked(List<PathElement> path, String subresource) {
        String first = name(path.get(0));
        boolean status = "status".equals(first);
        if ("status".equals(subresource) != status) {
            return false;
        }
        if (path.size() == 1) {
            return !TOP_LEVEL.contains(first) && !"metadata".equals(first);
        }
        return !("metadata".equals(first) && SERVER_METADATA.contains(name(path.get(1))));
    }

    private static String name(PathElement pe) {
        return pe instanceof PathElement.Field f ? f.name() : "";
    }
}
