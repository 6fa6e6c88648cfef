package dev.stsresize.cluster;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The one port through which the product talks to the API server.
 *
 * <p>Objects go in and come out as raw Jackson trees, never through client-java's models: a field
 * they do not know would be dropped, and a StatefulSet re-applied without it would restart its pods.
 * Every method is idempotent in the sense the converge relies on: calling it again after a success,
 * or after a failure whose outcome is unknown, reaches the same end state (or answers a 409/404 the
 * caller reads as "already done" after re-reading). Server errors are {@link ClusterException}
 * (code, reason, the server's message verbatim, Retry-After); no answer at all is
 * {@link ServerUnreachable}.
 *
 * <p>There is deliberately no way to delete a PersistentVolume, and exactly one way to delete a StatefulSet:
 * {@link #deleteStatefulSetOrphan}, which always orphans the pods and claims and always carries a
 * UID precondition. A claim is deleted only for a {@link ClaimDeleteAllowed}, which only
 * {@link ClaimDeleteAllowed#check} makes, from a verified copy ({@link CopyVerified}) and the claim's
 * PV re-read as {@code Retain}. The other deletes, each by UID: a run's own record Secret
 * ({@link #deleteRecordSecret}) and a copy pod the plugin created ({@link #deleteCopyPod}).
 */
public interface Cluster {

    // ---- reads (safe to repeat) ----

    /** GET {@code /version}: the server's version.Info ({@code major}, {@code minor}, {@code gitVersion}…), as answered. */
    ObjectNode serverVersion();

    /** LIST apps/v1 StatefulSets of one namespace or all. */
    ObjectList listStatefulSets(NamespaceScope scope);

    /** LIST PersistentVolumeClaims of one namespace or all. */
    ObjectList listClaims(NamespaceScope scope);

    /** LIST storage.k8s.io/v1 StorageClasses; a 403 is the distinct outcome {@link StorageClassList.Forbidden}. */
    StorageClassList listStorageClasses();

    /**
     * LIST storage.k8s.io/v1 CSIDrivers (a deployed CSI driver registers one; its resizer runs beside it);
     * a 403 is the distinct outcome {@link CsiDriverList.Forbidden}.
     */
    CsiDriverList listCsiDrivers();

    /**
     * LIST v1 PersistentVolumes (cluster-scoped): only for a copy into a {@code kubernetes.io/no-provisioner} class, whose
     * new volumes must exist Available beforehand; a 403 is the distinct outcome {@link PersistentVolumeList.Forbidden}.
     */
    PersistentVolumeList listPersistentVolumes();

    /** LIST pods of a namespace matching a label selector ({@code app=db,tier in (a,b)}; "" for all). */
    ObjectList listPods(String namespace, String labelSelector);

    /**
     * LIST the pods of StatefulSets (those labelled {@code statefulset.kubernetes.io/pod-name}, as the StatefulSet
     * controller labels every pod it creates) in one namespace or all: usage reads which node runs each StatefulSet's
     * pods with one LIST per scope. Each pod has only {@code metadata} name, namespace, ownerReferences and deletionTimestamp,
     * {@code spec.nodeName} and {@code status.phase}: the rest is skipped as it is read.
     */
    ObjectList listPods(NamespaceScope scope);

    /** LIST v1 ResourceQuotas of one namespace or all (usage caps its suggestions by {@code requests.storage}). */
    ObjectList listResourceQuotas(NamespaceScope scope);

    /**
     * GET {@code /api/v1/nodes/NODE/proxy/stats/summary}: the kubelet's summary (its {@code pods[].volume[]}
     * say how full each mounted claim is), through the API server's node proxy ({@code nodes/proxy} get).
     * Bounded by {@code timeout}: the API server sets no deadline on a proxied request, so a node that does
     * not answer would hold it for ever; no answer in time is {@link ServerUnreachable}. Never retried.
     * Only {@code node.nodeName} and each pod's {@code podRef} and {@code volume[]} are read (the CPU, memory,
     * network and container stats are skipped).
     */
    ObjectNode nodeSummary(String node, Duration timeout);

    /**
     * GET through the API server's service proxy ({@code services/proxy} get):
     * {@code /api/v1/namespaces/NS/services/SERVICE/proxy/PATH?QUERY}, with the kubeconfig's credentials
     * (an in-cluster Prometheus). {@code service} is {@code name}, {@code name:port} or {@code https:name:port}.
     * Every answer is returned with its code, whatever it is (the backend's 400 is the caller's to read);
     * only no answer within {@code timeout} throws ({@link ServerUnreachable}). Never retried.
     */
    HttpAnswer serviceProxyGet(String namespace, String service, String path, Map<String, String> query, Duration timeout);

    /** LIST apps/v1 ControllerRevisions of a namespace matching a label selector. */
    ObjectList listControllerRevisions(String namespace, String labelSelector);

    /**
     * LIST core v1 Events of one namespace about claims ({@code involvedObject.kind=PersistentVolumeClaim},
     * as kubectl describe selects them): what the resizers and the expand controller say
     * (ExternalExpanding, Resizing, VolumeResizeFailed). Read for the waits' progress only.
     */
    ObjectList listClaimEvents(String namespace);

    /** GET one StatefulSet; empty when it does not exist. */
    Optional<ObjectNode> getStatefulSet(String namespace, String name);

    /** GET one PersistentVolumeClaim; empty when it does not exist. */
    Optional<ObjectNode> getClaim(String namespace, String name);

    /** GET one pod; empty when it does not exist. */
    Optional<ObjectNode> getPod(String namespace, String name);

    /** GET one (cluster-scoped) PersistentVolume; empty when it does not exist. */
    Optional<ObjectNode> getPersistentVolume(String name);

    /**
     * GET {@code pods/NAME/log} (what {@code kubectl logs NAME -n NAMESPACE} prints): the text of the pod's only
     * container, stdout and stderr as the kubelet kept them. Untrusted output: read up to {@link PodLog#LIMIT_BYTES},
     * and a longer log is answered cut, {@link PodLog#complete()} false. Safe to repeat.
     */
    PodLog podLog(String namespace, String name);

    /**
     * GET {@code pods/NAME/log?tailLines=N} (what {@code kubectl logs NAME --tail N} prints): the last {@code tailLines}
     * lines only, for a wait's view of a running pod. Never a whole log: answered with {@link PodLog#complete()} false
     * whatever it holds, so no proof that needs the whole log ({@link CopyPodLog#verify}) can pass on a tail.
     */
    PodLog podLogTail(String namespace, String name, int tailLines);

    /**
     * WATCH one object by name. From a resourceVersion (that of a GET or LIST, or the last event
     * seen) it delivers every change after it, so repeating it from {@link ObjectWatch#lastResourceVersion()}
     * resumes without losing an event. From "" it starts with the current state as a synthetic
     * ADDED event (nothing at all when the object does not exist), then changes. To wait for a
     * deletion: GET first (absent means done), then watch from the GET's resourceVersion until DELETED.
     * The server ends each watch after a few minutes; a too-old resourceVersion ends it with 410.
     */
    ObjectWatch watch(WatchedKind kind, String namespace, String name, String fromResourceVersion);

    /** Asks the server whether the current user may do one thing (SelfSubjectAccessReview). Creates nothing lasting. */
    AccessReview selfSubjectAccessReview(ResourceAccess access);

    /**
     * Asks the server for every rule the current user holds in one namespace (SelfSubjectRulesReview,
     * what {@code kubectl auth can-i --list} asks). Creates nothing lasting. A server that refuses or
     * does not serve it answers with a {@link ClusterException}.
     */
    RulesReview selfSubjectRulesReview(String namespace);

    // ---- writes ----

    /**
     * Server-side apply ({@code application/apply-patch+yaml}; the JSON of the tree is valid YAML) of a
     * StatefulSet, namespace and name taken from its metadata. Idempotent: applying the same object
     * again by the same manager changes nothing. Answers the object as the server stored it (or would
     * have, under {@code dryRun}). The tree is sent as given, so it must be an apply configuration:
     * no {@code metadata.managedFields} (the server answers 400 "metadata.managedFields must be nil"),
     * a {@code metadata.resourceVersion} only when meant as a precondition ({@code status} is ignored).
     */
    ObjectNode applyStatefulSet(ObjectNode statefulSet, String fieldManager, boolean force, boolean dryRun);

    /**
     * Merge patch of one claim's {@code spec.resources.requests.storage} to {@code quantity}
     * (e.g. "20Gi"), nothing else. Idempotent: the same quantity again is a no-op. Grow-only is the
     * caller's rule; this method sets what it is given.
     */
    default ObjectNode patchClaimStorage(String namespace, String name, String quantity, boolean dryRun) {
        return patchClaimStorage(namespace, name, quantity, Map.of(), dryRun);
    }

    /**
     * The same merge patch, with {@code annotations} of the claim set in it ({@code metadata.annotations}; a
     * null value removes that annotation): what the patch records beside the request is written by the one
     * request that raises or lowers it, so neither stands without the other.
     */
    ObjectNode patchClaimStorage(String namespace, String name, String quantity, Map<String, String> annotations, boolean dryRun);

    /**
     * The ONLY delete of a StatefulSet: always {@code propagationPolicy: Orphan} (pods, claims and
     * revisions stay) and {@code preconditions.uid} (a StatefulSet recreated by someone else in the
     * meantime is not touched: 409). Answers the object as the server returned it (now terminating),
     * or empty when there was nothing to delete (404), which makes a repeat harmless.
     */
    Optional<ObjectNode> deleteStatefulSetOrphan(String namespace, String name, String uid, boolean dryRun);

    /**
     * POST a StatefulSet (restoring a backup). The object must be creatable: no resourceVersion.
     * A repeat answers 409 AlreadyExists; the caller then reads what is there.
     */
    ObjectNode createStatefulSet(ObjectNode statefulSet, boolean dryRun);

    /**
     * Merge patch of one PV's {@code spec.persistentVolumeReclaimPolicy} ({@code Retain}, {@code Delete} or
     * {@code Recycle}) with {@code metadata.resourceVersion} as a precondition: a PV written since it was read
     * answers 409, and the caller re-reads it. A repeat after a success answers 409 too (the resourceVersion moved);
     * the re-read then shows the policy already set, which is done.
     */
    ObjectNode patchVolumeReclaimPolicy(String volume, String policy, String resourceVersion, boolean dryRun);

    /**
     * Merge patch that re-points one PV's {@code spec.claimRef} to {@code {namespace, name}} of a claim, with no
     * uid and no resourceVersion (the PV controller pre-binds it to the claim of that name created next), and
     * {@code metadata.resourceVersion} as a precondition (409 when written since; re-read). It never removes
     * claimRef: an Available PV without one is bound by the PV controller to any claim of its class that fits,
     * and that claim's pod would read the migrated data. A repeat after a success: 409, and the re-read shows
     * the claimRef already pointing there.
     */
    ObjectNode pointVolumeAtClaim(String volume, String namespace, String claim, String resourceVersion, boolean dryRun);

    /**
     * POST a PersistentVolumeClaim (a copy's temporary claim, or the original name re-created on the new PV),
     * namespace from its metadata. It must be creatable: no resourceVersion. A repeat answers 409 AlreadyExists;
     * the caller then reads what is there.
     */
    ObjectNode createClaim(ObjectNode claim, boolean dryRun);

    /**
     * POST a copy pod: only a pod labelled {@code app.kubernetes.io/managed-by: kubectl-stsresize} and
     * {@code stsresize.dev/copy-of: <claim>} is sent (anything else is refused before any request). A repeat
     * answers 409 AlreadyExists; the caller then reads what is there.
     */
    ObjectNode createCopyPod(ObjectNode pod, boolean dryRun);

    /**
     * DELETE a copy pod this plugin created: the pod is read first and deleted only when it carries the copy
     * pod's labels and the UID given, and the DELETE carries that UID as a precondition (a pod re-created by
     * someone else in the meantime: 409). Empty when it was already gone (404), which makes a repeat harmless;
     * a pod without the labels or of another UID is refused ({@link IllegalStateException}), nothing sent.
     */
    Optional<ObjectNode> deleteCopyPod(String namespace, String name, String uid);

    /**
     * The ONLY delete of a claim: the one {@code allowed} names, with its UID as a precondition (a claim
     * re-created meanwhile is not touched: 409). {@code allowed} proves its copy was verified and its PV
     * re-read as {@code Retain} ({@link ClaimDeleteAllowed#check}). Answers the claim as the server returned it
     * (terminating while a pod uses it), or empty when it was already gone (404), which makes a repeat harmless.
     */
    Optional<ObjectNode> deleteClaim(ClaimDeleteAllowed allowed);

    /** GET a coordination.k8s.io/v1 Lease; empty when it does not exist. */
    Optional<ObjectNode> getLease(String namespace, String name);

    /** POST a Lease; 409 AlreadyExists when someone created it first (read it, then decide). */
    ObjectNode createLease(ObjectNode lease);

    /**
     * PUT a Lease carrying the resourceVersion it was read at: an optimistic lock, 409 Conflict when
     * someone else wrote it since (re-read; never retried blindly).
     */
    ObjectNode updateLease(ObjectNode lease);

    /** GET a v1 Secret; empty when it does not exist. Only a run's record Secret ({@code stsresize-<name>}) is read. */
    Optional<ObjectNode> getSecret(String namespace, String name);

    /** POST a Secret; 409 AlreadyExists when one of that name exists (read it, then decide). */
    ObjectNode createSecret(ObjectNode secret);

    /** PUT a Secret carrying the resourceVersion it was read at (409 Conflict when written since). */
    ObjectNode updateSecret(ObjectNode secret);

    /**
     * The only other delete: a run's record Secret, named {@code stsresize-…}, always with a UID
     * precondition (the Secret this run wrote or read, never one re-created by someone else in the
     * meantime: 409). Empty when it was already gone (404).
     */
    Optional<ObjectNode> deleteRecordSecret(String namespace, String name, String uid);

    /**
     * POST an Event (namespace from its metadata): an events.k8s.io/v1 one, or a core v1 one when its
     * apiVersion is {@code v1}. A repeat with a generated name adds a duplicate Event, nothing worse.
     */
    ObjectNode createEvent(ObjectNode event);

    /**
     * POST a policy/v1 Eviction for one pod: deleted only if its PodDisruptionBudgets allow (429 when
     * they do not, to be retried later). A repeat answers 404 once the pod is gone.
     */
    void evictPod(String namespace, String name, boolean dryRun);
}
