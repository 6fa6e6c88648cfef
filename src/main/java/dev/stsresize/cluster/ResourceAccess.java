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

    // equals and hashCode by hand: a record's own are made at first use by a bootstrap method (ObjectMethods),
    // which spins method-handle classes on the plan's start-up path (docs/performance.md); a map key in every plan

    @Override
    public boolean equals(Object o) {
        return o instanceof ResourceAccess a && java.util.Objects.equals(verb, a.verb) && group.equals(a.group)
                && java.util.Objects.equals(resource, a.resource) && subresource.equals(a.subresource)
                && namespace.equals(a.namespace) && name.equals(a.name);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(verb, group, resource, subresource, namespace, name);
    }

    /** "patch persistentvolumeclaims", "create pods/eviction", "delete statefulsets.apps": as RBAC names it. */
    public String describe() {
        String r = group.isEmpty() ? resource : resource + "." + group;
        return verb + " " + (subresource.isEmpty() ? r : r + "/" + subresource);
    }
}
