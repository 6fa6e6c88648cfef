package dev.stsresize.cluster;

/**
 * One question for a SelfSubjectAccessReview: may I {@code verb} this {@code resource}? Empty
 * strings stand for "any" (an empty name asks about every object of the namespace).
 */
public record ResourceAccess(String verb, String group, String resource, String subresource, String namespace,
        String name) {
    public ResourceAccess {
        group = nullToEmpty(group);
        subresource = nullToEmpty(subresource);
        namespace = nullToEmpty(namespace);
        name = nullToEmpty(name);
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }

    /** "patch persistentvolumeclaims", "create pods/eviction", "delete statefulsets.apps": as RBAC names it. */
    public String describe() {
        String r = group.isEmpty() ? resource : resource + "." + group;
        return verb + " " + (subresource.isEmpty() ? r : r + "/" + subresource);
    }
}
