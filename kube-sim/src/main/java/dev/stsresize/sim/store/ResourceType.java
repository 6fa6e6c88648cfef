package dev.stsresize.sim.store;

import java.util.List;
import java.util.Set;

/**
 * One REST resource the simulated server serves, as discovery describes it: group/version, plural
 * name, kind, scope, verbs, short names and subresources, plus the storage traits the server needs
 * (whether writes to the main resource ignore status, whether the object carries a generation,
 * whether DELETE answers with the object or with a Status).
 */
public record ResourceType(
        String group,
        String version,
        String resource,
        String kind,
        boolean namespaced,
        List<String> verbs,
        List<String> shortNames,
        List<String> categories,
        Set<String> subresources,
        boolean hasGeneration,
        boolean returnsDeletedObject) {

    public static final List<String> ALL_VERBS =
            List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");

    /** "apps/v1", or "v1" for the core group. */
    public String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    public boolean hasStatus() {
        return subresources.contains("status");
    }

    /** "statefulsets.apps", or "persistentvolumeclaims" for the core group (GroupResource.String()). */
    public String groupResource() {
        return group.isEmpty() ? resource : resource + "." + group;
    }

    /** "StatefulSet.apps", or "PersistentVolumeClaim": how NewInvalid and delete preconditions name the kind. */
    public String qualifiedKind() {
        return group.isEmpty() ? kind : kind + "." + group;
    }

    /** The URL prefix of the group version: "/api/v1" or "/apis/apps/v1". */
    public String pathPrefix() {
        return group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version;
    }

    public String singularName() {
        return kind.toLowerCase(java.util.Locale.ROOT);
    }
}
