package dev.stsresize.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.RawApi.Query;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@link Cluster} on client-java: raw JSON over the configured {@code ApiClient}. */
public final class KubeCluster implements Cluster {
    /** The manager of the claim patches, as {@code kubectl patch} sends {@code kubectl-patch}. */
    public static final String PATCH_FIELD_MANAGER = "kubectl-stsresize";
    /** How long the server keeps one watch open before the caller resumes it. */
    static final int WATCH_SECONDS = 300;
    /** The only Secrets the port deletes: a run's record (converge.RecordSecret). */
    static final String RECORD_SECRET_PREFIX = "stsresize-";
    /** The values of {@code spec.persistentVolumeReclaimPolicy} (core/v1 PersistentVolumeReclaimPolicy). */
    static final java.util.Set<String> RECLAIM_POLICIES = java.util.Set.of("Retain", "Delete", "Recycle");

    /**
     * Set by the StatefulSet controller on every pod it creates, and set again on a pod it keeps that lacks it
     * ({@code updateIdentity}, {@code identityMatches} in pkg/controller/statefulset/stateful_set_utils.go).
     */
    static final String STATEFULSET_POD_LABEL = "statefulset.kubernetes.io/pod-name";

    /**
     * What a kubelet summary is read for: each pod's reference and its volumes' stats. A real summary also carries the
     * node's and every container's CPU, memory, network and filesystem stats; they are skipped as they are read.
     */
    static final Map<String, Object> SUMMARY = Map.of(
            "node", Map.of("nodeName", TrimmedJson.WHOLE),
            "pods", Map.of("podRef", TrimmedJson.WHOLE, "volume", Map.of(
                    "time", TrimmedJson.WHOLE, "availableBytes", TrimmedJson.WHOLE, "capacityBytes", TrimmedJson.WHOLE,
                    "usedBytes", TrimmedJson.WHOLE, "name", TrimmedJson.WHOLE, "pvcRef", TrimmedJson.WHOLE)));

    private final RawApi api;

    public KubeCluster(ClusterConnection connection) {
        this.api = new RawApi(connection.client(), new Failures(connection.server(), connection.origin()));
    }

    // ---- reads ----

    @Override
    public ObjectList listStatefulSets(NamespaceScope scope) {
        return list(Resource.STATEFUL_SETS, scope.namespace().orElse(null), Query.of());
    }

    @Override
    public ObjectList listClaims(NamespaceScope scope) {
        return list(Resource.CLAIMS, scope.namespace().orElse(null), Query.of());
    }

    @Override
    public StorageClassList listStorageClasses() {
        try {
            return new StorageClassList.Visible(list(Resource.STORAGE_CLASSES, null, Query.of()).items());
        } catch (ClusterException e) {
            if (e.code() == 403) {
                return new StorageClassList.Forbidden(e.getMessage());
            }
            throw e;
        }
    }

    @Override
    public ObjectNode serverVersion() {
        ObjectNode info = api.send("GET", "/version", Query.of(), null, null, "read the server's version");
        return info == null ? TreeMapper.MAPPER.createObjectNode() : info;
    }

    @Override
    public CsiDriverList listCsiDrivers() {
        try {
            return new CsiDriverList.Visible(list(Resource.CSI_DRIVERS, null, Query.of()).items());
        } catch (ClusterException e) {
            if (e.code() == 403) {
                return new CsiDriverList.Forbidden(e.getMessage());
            }
            throw e;
        }
    }

    @Override
    public PersistentVolumeList listPersistentVolumes() {
        try {
            return new PersistentVolumeList.Visible(list(Resource.PERSISTENT_VOLUMES, null, Query.of()).items());
        } catch (ClusterException e) {
            if (e.code() == 403) {
                return new PersistentVolumeList.Forbidden(e.getMessage());
            }
            throw e;
        }
    }

    @Override
    public ObjectList listPods(String namespace, String labelSelector) {
        return list(Resource.PODS, requireNamespace(namespace), Query.of().with("labelSelector", labelSelector));
    }

    @Override
    public ObjectList listPods(NamespaceScope scope) {
        String namespace = scope.namespace().orElse(null);
        // only the pods a StatefulSet controller made (it labels every one with its name): the kube-apiserver
        // filters in its watch cache, and a cluster of Deployments no longer sends every pod it runs. The selector is
        // read from the query with the LIST's options (ListResource, endpoints/handlers/get.go) and parsed by
        // labels.Parse: a bare key is an existence requirement
        ObjectNode list = api.get(Resource.PODS.collection(namespace), Query.of().with("labelSelector", STATEFULSET_POD_LABEL),
                "LIST pods " + (namespace == null ? "(all namespaces)" : namespace), PodPlacements::read);
        return items(Resource.PODS, list);
    }

    @Override
    public ObjectList listResourceQuotas(NamespaceScope scope) {
        return list(Resource.RESOURCE_QUOTAS, scope.namespace().orElse(null), Query.of());
    }

    @Override
    public ObjectNode nodeSummary(String node, Duration timeout) {
        return api.send("GET", Resource.NODES.object(null, node) + "/proxy/stats/summary", Query.of(), timeout,
                "GET nodes/proxy " + node + " stats/summary", in -> TrimmedJson.read(in, SUMMARY));
    }

    @Override
    public HttpAnswer serviceProxyGet(String namespace, String service, String path, Map<String, String> query,
            Duration timeout) {
        String rest = path.startsWith("/") ? path : "/" + path;
        if (rest.contains("/../") || rest.endsWith("/..") || rest.contains("/./")) {
            throw new IllegalArgumentException("a service proxy path cannot hold dot segments: " + path);
        }
        Query q = Query.of();
        query.forEach(q::with);
        return api.get(Resource.SERVICES.object(requireNamespace(namespace), service) + "/proxy" + rest, q, timeout,
                "GET services/proxy " + namespace + "/" + service + rest);
    }

    @Override
    public ObjectList listControllerRevisions(String namespace, String labelSelector) {
        return list(Resource.CONTROLLER_REVISIONS, requireNamespace(namespace),
                Query.of().with("labelSelector", labelSelector));
    }

    @Override
    public ObjectList listClaimEvents(String namespace) {
        return list(Resource.CORE_EVENTS, requireNamespace(namespace),
                Query.of().with("fieldSelector", "involvedObject.kind=PersistentVolumeClaim"));
    }

    @Override
    public Optional<ObjectNode> getStatefulSet(String namespace, String name) {
        return get(Resource.STATEFUL_SETS, namespace, name);
    }

    @Override
    public Optional<ObjectNode> getClaim(String namespace, String name) {
        return get(Resource.CLAIMS, namespace, name);
    }

    @Override
    public Optional<ObjectNode> getPod(String namespace, String name) {
        return get(Resource.PODS, namespace, name);
    }

    @Override
    public Optional<ObjectNode> getPersistentVolume(String name) {
        Resource r = Resource.PERSISTENT_VOLUMES;
        try {
            return Optional.ofNullable(api.send("GET", r.object(null, name), Query.of(), null, null, "GET " + r.plural + " " + name));
        } catch (ClusterException e) {
            if (e.isNotFound()) {
                return Optional.empty();
            }
            throw e;
        }
    }

    @Override
    public PodLog podLog(String namespace, String name) {
        return api.text(Resource.PODS.object(requireNamespace(namespace), name) + "/log", Query.of(), PodLog.LIMIT_BYTES,
                "GET pods/log " + namespace + "/" + name);
    }

    @Override
    public PodLog podLogTail(String namespace, String name, int tailLines) {
        if (tailLines < 0) {
            throw new IllegalArgumentException("tailLines " + tailLines + ": a tail is 0 lines or more");
        }
        PodLog tail = api.text(Resource.PODS.object(requireNamespace(namespace), name) + "/log", Query.of().with("tailLines",
                Integer.toString(tailLines)), PodLog.LIMIT_BYTES, "GET pods/log " + namespace + "/" + name + " (last " + tailLines + " lines)");
        return new PodLog(tail.text(), false);
    }

    @Override
    public ObjectWatch watch(WatchedKind kind, String namespace, String name, String fromResourceVersion) {
        Resource r = kind.resource;
        String operation = "WATCH " + r.plural + " " + namespace + "/" + name;
        Query query = Query.of()
                .with("fieldSelector", "metadata.name=" + name)
                .with("watch", "true")
                .with("allowWatchBookmarks", "true")
                .with("timeoutSeconds", Integer.toString(WATCH_SECONDS))
                .with("resourceVersion", fromResourceVersion);
        return new StreamingWatch(
                api.open(r.collection(requireNamespace(namespace)), query, WATCH_SECONDS + 30L, operation),
                fromResourceVersion == null ? "" : fromResourceVersion, operation);
    }

    @Override
    public AccessReview selfSubjectAccessReview(ResourceAccess access) {
        Resource r = Resource.SELF_SUBJECT_ACCESS_REVIEWS;
        ObjectNode review = typed(r);
        ObjectNode attributes = review.putObject("spec").putObject("resourceAttributes");
        attributes.put("verb", access.verb());
        attributes.put("group", access.group());
        attributes.put("resource", access.resource());
        putIfSet(attributes, "subresource", access.subresource());
        putIfSet(attributes, "namespace", access.namespace());
        putIfSet(attributes, "name", access.name());
        ObjectNode answer = api.send("POST", r.collection(null), Query.of(), review, RawApi.JSON,
                "CREATE selfsubjectaccessreviews (" + access.describe() + ")");
        JsonNode status = answer == null ? null : answer.path("status");
        boolean allowed = status != null && status.path("allowed").asBoolean(false)
                && !status.path("denied").asBoolean(false);
        String reason = status == null ? "" : status.path("reason").asText("");
        if (reason.isEmpty() && status != null) {
            reason = status.path("evaluationError").asText("");
        }
        return new AccessReview(allowed, reason);
    }

    @Override
    public RulesReview selfSubjectRulesReview(String namespace) {
        Resource r = Resource.SELF_SUBJECT_RULES_REVIEWS;
        ObjectNode review = typed(r);
        review.putObject("spec").put("namespace", requireNamespace(namespace));
        ObjectNode answer = api.send("POST", r.collection(null), Query.of(), review, RawApi.JSON,
                "CREATE selfsubjectrulesreviews (" + namespace + ")");
        JsonNode status = answer == null ? null : answer.path("status");
        if (status == null || !status.path("resourceRules").isArray()) {
            // nothing to read the rules from: as good as an answer that says it is incomplete
            return new RulesReview(java.util.List.of(), true, "the server's answer has no status.resourceRules");
        }
        java.util.List<RulesReview.Rule> rules = new java.util.ArrayList<>();
        for (JsonNode rule : status.path("resourceRules")) {
            rules.add(new RulesReview.Rule(texts(rule.path("verbs")), texts(rule.path("apiGroups")), texts(rule.path("resources")),
                    texts(rule.path("resourceNames"))));
        }
        return new RulesReview(rules, status.path("incomplete").asBoolean(false), status.path("evaluationError").asText(""));
    }

    private static java.util.List<String> texts(JsonNode list) {
        java.util.List<String> out = new java.util.ArrayList<>();
        if (list.isArray()) {
            list.forEach(v -> {
                if (v.isTextual()) {
                    out.add(v.asText());
                }
            });
        }
        return out;
    }

    // ---- writes ----

    @Override
    public ObjectNode applyStatefulSet(ObjectNode statefulSet, String fieldManager, boolean force, boolean dryRun) {
        Resource r = Resource.STATEFUL_SETS;
        String ns = namespaceOf(statefulSet);
        String name = nameOf(statefulSet);
        Query query = Query.of().with("fieldManager", requireText(fieldManager, "fieldManager"))
                .with("force", Boolean.toString(force)).dryRun(dryRun);
        return api.send("PATCH", r.object(ns, name), query, withType(statefulSet, r), RawApi.APPLY_PATCH,
                "APPLY statefulsets " + ns + "/" + name);
    }

    @Override
    public ObjectNode patchClaimStorage(String namespace, String name, String quantity, Map<String, String> annotations, boolean dryRun) {
        ObjectNode patch = TreeMapper.MAPPER.createObjectNode();
        if (!annotations.isEmpty()) {
            ObjectNode ann = patch.putObject("metadata").putObject("annotations");
            annotations.forEach((k, v) -> {
                if (v == null) {
                    ann.putNull(k); // a merge patch's null removes the key (RFC 7386)
                } else {
                    ann.put(k, v);
                }
            });
        }
        patch.putObject("spec").putObject("resources").putObject("requests")
                .put("storage", requireText(quantity, "quantity"));
        Query query = Query.of().with("fieldManager", PATCH_FIELD_MANAGER).dryRun(dryRun);
        return api.send("PATCH", Resource.CLAIMS.object(requireNamespace(namespace), name), query, patch,
                RawApi.MERGE_PATCH, "PATCH persistentvolumeclaims " + namespace + "/" + name);
    }

    @Override
    public Optional<ObjectNode> deleteStatefulSetOrphan(String namespace, String name, String uid, boolean dryRun) {
        ObjectNode options = TreeMapper.MAPPER.createObjectNode();
        options.put("kind", "DeleteOptions");
        options.put("apiVersion", "v1");
        options.put("propagationPolicy", "Orphan");
        options.putObject("preconditions").put("uid", requireText(uid, "uid"));
        // In the body, never the query: kube-apiserver's DELETE handler
        // (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/delete.go) decodes the options from the
        // body when there is one and then never reads the query, so ?dryRun=All beside a body deletes.
        if (dryRun) {
            options.putArray("dryRun").add("All");
        }
        try {
            return Optional.ofNullable(api.send("DELETE",
                    Resource.STATEFUL_SETS.object(requireNamespace(namespace), name), Query.of(),
                    options, RawApi.JSON, "DELETE statefulsets " + namespace + "/" + name));
        } catch (ClusterException e) {
            if (e.isNotFound()) {
                return Optional.empty();
            }
            throw e;
        }
    }

    @Override
    public ObjectNode patchVolumeReclaimPolicy(String volume, String policy, String resourceVersion, boolean dryRun) {
        if (!RECLAIM_POLICIES.contains(policy)) {
            throw new IllegalArgumentException("a reclaim policy is Retain, Delete or Recycle, not " + policy);
        }
        ObjectNode patch = TreeMapper.MAPPER.createObjectNode();
        patch.putObject("metadata").put("resourceVersion", requireText(resourceVersion, "resourceVersion"));
        patch.putObject("spec").put("persistentVolumeReclaimPolicy", policy);
        return patchVolume(volume, patch, dryRun);
    }

    @Override
    public ObjectNode pointVolumeAtClaim(String volume, String namespace, String claim, String resourceVersion, boolean dryRun) {
        // A merge patch (RFC 7386) of claimRef's members: claimRef itself is an object here, never null, so it is
        // merged into, never removed. Its uid, resourceVersion and fieldPath are set to null (removed), so the PV
        // controller pre-binds the PV to the next claim of that name (pkg/controller/volume/persistentvolume,
        // syncVolume: a claimRef without uid). Removing claimRef instead would leave an Available PV that the
        // controller binds to any claim of its class that fits, whose pod would read the migrated data.
        ObjectNode patch = TreeMapper.MAPPER.createObjectNode();
        patch.putObject("metadata").put("resourceVersion", requireText(resourceVersion, "resourceVersion"));
        ObjectNode ref = patch.putObject("spec").putObject("claimRef");
        ref.put("apiVersion", "v1");
        ref.put("kind", "PersistentVolumeClaim");
        ref.put("namespace", requireNamespace(namespace));
        ref.put("name", requireText(claim, "claim"));
        ref.putNull("uid");
        ref.putNull("resourceVersion");
        ref.putNull("fieldPath");
        return patchVolume(volume, patch, dryRun);
    }

    private ObjectNode patchVolume(String volume, ObjectNode patch, boolean dryRun) {
        Query query = Query.of().with("fieldManager", PATCH_FIELD_MANAGER).dryRun(dryRun);
        return api.send("PATCH", Resource.PERSISTENT_VOLUMES.object(null, volume), query, patch, RawApi.MERGE_PATCH,
                "PATCH persistentvolumes " + volume);
    }

    @Override
    public ObjectNode createClaim(ObjectNode claim, boolean dryRun) {
        return create(Resource.CLAIMS, claim, Query.of().dryRun(dryRun));
    }

    @Override
    public ObjectNode createCopyPod(ObjectNode pod, boolean dryRun) {
        if (!CopyPodLog.hasCopyPodLabels(pod)) {
            throw new IllegalArgumentException("only a copy pod (labels " + CopyPodLog.MANAGED_BY_LABEL + "=" + CopyPodLog.MANAGED_BY + ", "
                    + CopyPodLog.COPY_OF_LABEL + ") is created, not " + pod.path("metadata").path("name").asText());
        }
        return create(Resource.PODS, pod, Query.of().dryRun(dryRun));
    }

    @Override
    public Optional<ObjectNode> deleteCopyPod(String namespace, String name, String uid) {
        requireText(uid, "uid");
        if (!name.startsWith(CopyPodLog.NAME_PREFIX)) {
            throw new IllegalArgumentException("only a copy pod (" + CopyPodLog.NAME_PREFIX + "…) is ever deleted, not " + name);
        }
        Optional<ObjectNode> pod = getPod(namespace, name);
        if (pod.isEmpty()) {
            return Optional.empty();
        }
        // DeleteOptions have no label precondition: the labels are read here, and the UID precondition makes the
        // DELETE reach only the pod whose labels were read
        if (!CopyPodLog.hasCopyPodLabels(pod.get()) || !uid.equals(pod.get().path("metadata").path("uid").asText())) {
            throw new IllegalStateException("pod " + namespace + "/" + name + " is not the copy pod this run created (uid " + uid
                    + ", labels " + CopyPodLog.MANAGED_BY_LABEL + ", " + CopyPodLog.COPY_OF_LABEL + "): it is not deleted");
        }
        return deleteByUid(Resource.PODS, namespace, name, uid);
    }

    @Override
    public Optional<ObjectNode> deleteClaim(ClaimDeleteAllowed allowed) {
        java.util.Objects.requireNonNull(allowed, "a claim is deleted only with a ClaimDeleteAllowed");
        return deleteByUid(Resource.CLAIMS, allowed.namespace(), allowed.claim(), allowed.uid());
    }

    /** A DELETE with the UID as a precondition in the body (handlers/delete.go reads the body when there is one); 404 is empty. */
    private Optional<ObjectNode> deleteByUid(Resource r, String namespace, String name, String uid) {
        ObjectNode options = TreeMapper.MAPPER.createObjectNode();
        options.put("kind", "DeleteOptions");
        options.put("apiVersion", "v1");
        options.putObject("preconditions").put("uid", requireText(uid, "uid"));
        try {
            return Optional.ofNullable(api.send("DELETE", r.object(requireNamespace(namespace), name), Query.of(), options, RawApi.JSON,
                    "DELETE " + r.plural + " " + namespace + "/" + name));
        } catch (ClusterException e) {
            if (e.isNotFound()) {
                return Optional.empty();
            }
            throw e;
        }
    }

    @Override
    public ObjectNode createStatefulSet(ObjectNode statefulSet, boolean dryRun) {
        return create(Resource.STATEFUL_SETS, statefulSet, Query.of().dryRun(dryRun));
    }

    @Override
    public Optional<ObjectNode> getLease(String namespace, String name) {
        return get(Resource.LEASES, namespace, name);
    }

    @Override
    public ObjectNode createLease(ObjectNode lease) {
        return create(Resource.LEASES, lease, Query.of());
    }

    @Override
    public ObjectNode updateLease(ObjectNode lease) {
        return updateAtVersion(Resource.LEASES, lease, "Lease", "leases");
    }

    @Override
    public Optional<ObjectNode> getSecret(String namespace, String name) {
        return get(Resource.SECRETS, namespace, name);
    }

    @Override
    public ObjectNode createSecret(ObjectNode secret) {
        return create(Resource.SECRETS, secret, Query.of());
    }

    @Override
    public ObjectNode updateSecret(ObjectNode secret) {
        return updateAtVersion(Resource.SECRETS, secret, "Secret", "secrets");
    }

    /** PUT carrying the resourceVersion it was read at: an optimistic lock (409 when written since). */
    private ObjectNode updateAtVersion(Resource resource, ObjectNode object, String kind, String plural) {
        String ns = namespaceOf(object);
        String name = nameOf(object);
        requireText(object.path("metadata").path("resourceVersion").asText(""), "metadata.resourceVersion of the " + kind);
        return api.send("PUT", resource.object(ns, name), Query.of(), withType(object, resource),
                RawApi.JSON, "UPDATE " + plural + " " + ns + "/" + name);
    }

    @Override
    public Optional<ObjectNode> deleteRecordSecret(String namespace, String name, String uid) {
        if (!name.startsWith(RECORD_SECRET_PREFIX)) {
            throw new IllegalArgumentException("only a run's record Secret (" + RECORD_SECRET_PREFIX + "…) is ever deleted, not " + name);
        }
        // the options in the body: handlers/delete.go decodes them from the body when there is one
        ObjectNode options = TreeMapper.MAPPER.createObjectNode();
        options.put("kind", "DeleteOptions");
        options.put("apiVersion", "v1");
        options.putObject("preconditions").put("uid", requireText(uid, "uid"));
        try {
            return Optional.ofNullable(api.send("DELETE", Resource.SECRETS.object(requireNamespace(namespace), name), Query.of(),
                    options, RawApi.JSON, "DELETE secrets " + namespace + "/" + name));
        } catch (ClusterException e) {
            if (e.isNotFound()) {
                return Optional.empty();
            }
            throw e;
        }
    }

    @Override
    public ObjectNode createEvent(ObjectNode event) {
        return create("v1".equals(event.path("apiVersion").asText()) ? Resource.CORE_EVENTS : Resource.EVENTS, event, Query.of());
    }

    @Override
    public void evictPod(String namespace, String name, boolean dryRun) {
        ObjectNode eviction = TreeMapper.MAPPER.createObjectNode();
        eviction.put("apiVersion", "policy/v1");
        eviction.put("kind", "Eviction");
        eviction.putObject("metadata").put("name", name).put("namespace", namespace);
        api.send("POST", Resource.PODS.object(requireNamespace(namespace), name) + "/eviction",
                Query.of().dryRun(dryRun), eviction, RawApi.JSON, "EVICT pods " + namespace + "/" + name);
    }

    // ---- helpers ----

    private ObjectList list(Resource r, String namespace, Query query) {
        String where = namespace == null ? "(all namespaces)" : namespace;
        return items(r, api.get(r.collection(namespace), query, "LIST " + r.plural + " " + where, KubeCluster::sharingTexts));
    }

    /** A LIST's answer as a tree whose repeated short texts are one node each ({@link SharedTexts}). */
    private static ObjectNode sharingTexts(java.io.InputStream in) throws java.io.IOException {
        JsonNode tree = TreeMapper.MAPPER.reader().with(new SharedTexts()).readTree(in);
        return tree instanceof ObjectNode o ? o : null;
    }

    private static ObjectList items(Resource r, ObjectNode list) {
        List<ObjectNode> items = new ArrayList<>();
        if (list != null && list.path("items") instanceof ArrayNode array) {
            for (JsonNode item : array) {
                if (item instanceof ObjectNode o) {
                    items.add(withTypeInPlace(o, r));
                }
            }
        }
        String rv = list == null ? "" : list.path("metadata").path("resourceVersion").asText("");
        return new ObjectList(items, rv);
    }

    private Optional<ObjectNode> get(Resource r, String namespace, String name) {
        try {
            return Optional.ofNullable(api.send("GET", r.object(requireNamespace(namespace), name), Query.of(), null,
                    null, "GET " + r.plural + " " + namespace + "/" + name));
        } catch (ClusterException e) {
            if (e.isNotFound()) {
                return Optional.empty();
            }
            throw e;
        }
    }

    private ObjectNode create(Resource r, ObjectNode object, Query query) {
        String ns = namespaceOf(object);
        return api.send("POST", r.collection(ns), query, withType(object, r), RawApi.JSON,
                "CREATE " + r.plural + " " + ns + "/" + object.path("metadata").path("name").asText("(generated)"));
    }

    /** A copy with apiVersion and kind set when missing: the server needs them on a body. */
    private static ObjectNode withType(ObjectNode object, Resource r) {
        return withTypeInPlace(object.deepCopy(), r);
    }

    private static ObjectNode withTypeInPlace(ObjectNode o, Resource r) {
        if (!o.hasNonNull("apiVersion")) {
            o.put("apiVersion", r.apiVersion);
        }
        if (!o.hasNonNull("kind")) {
            o.put("kind", r.kind);
        }
        return o;
    }

    private static ObjectNode typed(Resource r) {
        return withTypeInPlace(TreeMapper.MAPPER.createObjectNode(), r);
    }

    private static void putIfSet(ObjectNode o, String field, String value) {
        if (!value.isEmpty()) {
            o.put(field, value);
        }
    }

    private static String namespaceOf(ObjectNode object) {
        return requireText(object.path("metadata").path("namespace").asText(""), "metadata.namespace");
    }

    private static String nameOf(ObjectNode object) {
        return requireText(object.path("metadata").path("name").asText(""), "metadata.name");
    }

    private static String requireNamespace(String namespace) {
        return requireText(namespace, "namespace");
    }

    private static String requireText(String value, String what) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException(what + " is required here");
        }
        return value;
    }
}
