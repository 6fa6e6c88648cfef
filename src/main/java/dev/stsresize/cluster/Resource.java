package dev.stsresize.cluster;

/** REST coordinates of the resources the product touches. */
enum Resource {
    STATEFUL_SETS("/apis/apps/v1", "statefulsets", "apps/v1", "StatefulSet", true),
    CONTROLLER_REVISIONS("/apis/apps/v1", "controllerrevisions", "apps/v1", "ControllerRevision", true),
    CLAIMS("/api/v1", "persistentvolumeclaims", "v1", "PersistentVolumeClaim", true),
    PERSISTENT_VOLUMES("/api/v1", "persistentvolumes", "v1", "PersistentVolume", false),
    PODS("/api/v1", "pods", "v1", "Pod", true),
    RESOURCE_QUOTAS("/api/v1", "resourcequotas", "v1", "ResourceQuota", true),
    NODES("/api/v1", "nodes", "v1", "Node", false),
    SERVICES("/api/v1", "services", "v1", "Service", true),
    STORAGE_CLASSES("/apis/storage.k8s.io/v1", "storageclasses", "storage.k8s.io/v1", "StorageClass", false),
    CSI_DRIVERS("/apis/storage.k8s.io/v1", "csidrivers", "storage.k8s.io/v1", "CSIDriver", false),
    SECRETS("/api/v1", "secrets", "v1", "Secret", true),
    LEASES("/apis/coordination.k8s.io/v1", "leases", "coordination.k8s.io/v1", "Lease", true),
    EVENTS("/apis/events.k8s.io/v1", "events", "events.k8s.io/v1", "Event", true),
    CORE_EVENTS("/api/v1", "events", "v1", "Event", true),
    SELF_SUBJECT_ACCESS_REVIEWS("/apis/authorization.k8s.io/v1", "selfsubjectaccessreviews",
            "authorization.k8s.io/v1", "SelfSubjectAccessReview", false),
    SELF_SUBJECT_RULES_REVIEWS("/apis/authorization.k8s.io/v1", "selfsubjectrulesreviews",
            "authorization.k8s.io/v1", "SelfSubjectRulesReview", false);

    final String prefix;
    final String plural;
    final String apiVersion;
    final String kind;
    final boolean namespaced;

    Resource(String prefix, String plural, String apiVersion, String kind, boolean namespaced) {
        this.prefix = prefix;
        this.plural = plural;
        this.apiVersion = apiVersion;
        this.kind = kind;
        this.namespaced = namespaced;
    }

    /** The collection path: of one namespace, or cluster-wide when {@code namespace} is null. */
    String collection(String namespace) {
        if (namespace == null || !namespaced) {
            return prefix + "/" + plural;
        }
        return prefix + "/namespaces/" + segment(namespace) + "/" + plural;
    }

    String object(String namespace, String name) {
        return collection(namespace) + "/" + segment(name);
    }

    /**
     * A name as one path segment, percent-encoded: a name the server would refuse ("a/b", "Bad Name")
     * reaches it as such, and its answer (404, 400) says what is wrong, as with kubectl.
     */
    static String segment(String s) {
        if (s == null || s.isEmpty()) {
            throw new IllegalArgumentException("a name or namespace is required here");
        }
        if (s.equals(".") || s.equals("..")) {
            // a dot segment is resolved by the client: namespaces/../statefulsets would become cluster-wide
            throw new IllegalArgumentException("\"" + s + "\" cannot be a name or namespace: it would change the request's path");
        }
        StringBuilder out = new StringBuilder();
        for (byte b : s.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (c < 0x80 && (Character.isLetterOrDigit(c) || "-._~:@".indexOf(c) >= 0)) {
                out.append(c);
            } else {
                out.append('%').append(String.format("%02X", b & 0xff));
            }
        }
        return out.toString();
    }
}
