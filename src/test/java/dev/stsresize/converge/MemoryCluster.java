package dev.stsresize.converge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.AccessReview;
import dev.stsresize.cluster.ClaimDeleteAllowed;
import dev.stsresize.cluster.CopyPodLog;
import dev.stsresize.cluster.PersistentVolumeList;
import dev.stsresize.cluster.PodLog;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.CsiDriverList;
import dev.stsresize.cluster.HttpAnswer;
import dev.stsresize.cluster.NamespaceScope;
import dev.stsresize.cluster.ObjectList;
import dev.stsresize.cluster.ObjectWatch;
import dev.stsresize.cluster.ResourceAccess;
import dev.stsresize.cluster.RulesReview;
import dev.stsresize.cluster.StorageClassList;
import dev.stsresize.cluster.WatchedKind;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@link Cluster} port in memory, for unit tests of the converge's classes that act on a cluster: each
 * method answers from the {@link MemoryClusterState} the test set up, as the API server would (its status
 * codes and messages), and records the call. A watch first runs what the test planned for that object
 * ({@link #onWatch}: a controller's or a kubelet's next step), then delivers the object's state if it changed
 * since the resourceVersion watched from, then ends. A wait for a state nobody brings therefore reaches its
 * deadline after a few watches, in milliseconds.
 *
 * <p>Tests assert outcomes and safety facts ({@link #deletes}, {@link #writes}), never the order or
 * number of requests, which the converge is free to change.
 */
final class MemoryCluster extends MemoryClusterState implements Cluster {
    MemoryCluster(Time time) {
        super(time);
    }

    MemoryCluster() {
        this(new Time());
    }

    // ---- reads --------------------------------------------------------------------------------------

    @Override
    public ObjectNode serverVersion() {
        read("serverVersion", "");
        return json("{'major':'1','minor':'32','gitVersion':'v1.32.0'}");
    }

    @Override
    public ObjectList listStatefulSets(NamespaceScope scope) {
        read("listStatefulSets", scope.toString());
        return objectList(list("StatefulSet", scope.namespace(), ""));
    }

    @Override
    public ObjectList listClaims(NamespaceScope scope) {
        read("listClaims", scope.toString());
        return objectList(list("PersistentVolumeClaim", scope.namespace(), ""));
    }

    @Override
    public StorageClassList listStorageClasses() {
        read("listStorageClasses", "");
        return storageClassesForbidden ? new StorageClassList.Forbidden("storageclasses is forbidden")
                : new StorageClassList.Visible(list("StorageClass", Optional.empty(), ""));
    }

    @Override
    public CsiDriverList listCsiDrivers() {
        read("listCsiDrivers", "");
        return csiDriversForbidden ? new CsiDriverList.Forbidden("csidrivers is forbidden")
                : new CsiDriverList.Visible(list("CSIDriver", Optional.empty(), ""));
    }

    @Override
    public ObjectList listPods(String namespace, String labelSelector) {
        read("listPods", namespace + " " + labelSelector);
        return objectList(list("Pod", Optional.of(namespace), labelSelector));
    }

    @Override
    public ObjectList listPods(NamespaceScope scope) {
        read("listPods", scope.toString());
        return objectList(list("Pod", scope.namespace(), "").stream()
                .filter(p -> p.path("metadata").path("labels").has("statefulset.kubernetes.io/pod-name")).toList());
    }

    @Override
    public ObjectList listResourceQuotas(NamespaceScope scope) {
        read("listResourceQuotas", scope.toString());
        return objectList(list("ResourceQuota", scope.namespace(), ""));
    }

    @Override
    public ObjectNode nodeSummary(String node, Duration timeout) {
        read("nodeSummary", node);
        synchronized (this) {
            ObjectNode s = summaries.get(node);
            if (s == null) {
                throw error(404, "NotFound", "nodes \"" + node + "\" not found");
            }
            return s.deepCopy();
        }
    }

    @Override
    public HttpAnswer serviceProxyGet(String namespace, String service, String path, Map<String, String> query, Duration timeout) {
        read("serviceProxyGet", namespace + "/" + service);
        return new HttpAnswer(404, "text/plain", "not here");
    }

    @Override
    public ObjectList listControllerRevisions(String namespace, String labelSelector) {
        read("listControllerRevisions", namespace + " " + labelSelector);
        return objectList(list("ControllerRevision", Optional.of(namespace), labelSelector));
    }

    @Override
    public ObjectList listClaimEvents(String namespace) {
        read("listClaimEvents", namespace);
        return objectList(list("Event", Optional.of(namespace), "").stream()
                .filter(e -> "PersistentVolumeClaim".equals(e.path("involvedObject").path("kind").asText())).toList());
    }

    @Override
    public Optional<ObjectNode> getStatefulSet(String namespace, String name) {
        read("getStatefulSet", namespace + "/" + name);
        return get("StatefulSet", namespace, name);
    }

    @Override
    public Optional<ObjectNode> getClaim(String namespace, String name) {
        read("getClaim", namespace + "/" + name);
        return get("PersistentVolumeClaim", namespace, name);
    }

    @Override
    public Optional<ObjectNode> getPod(String namespace, String name) {
        read("getPod", namespace + "/" + name);
        return get("Pod", namespace, name);
    }

    @Override
    public ObjectWatch watch(WatchedKind kind, String namespace, String name, String fromResourceVersion) {
        read("watch", kind + " " + namespace + "/" + name);
        String k = switch (kind) {
            case STATEFUL_SET -> "StatefulSet";
            case PERSISTENT_VOLUME_CLAIM -> "PersistentVolumeClaim";
            case POD -> "Pod";
        };
        return plannedWatch(k, namespace, name, fromResourceVersion);
    }

    @Override
    public AccessReview selfSubjectAccessReview(ResourceAccess access) {
        read("selfSubjectAccessReview", access.namespace() + " " + access.describe());
        synchronized (this) {
            accessReviews.add(access);
        }
        return new AccessReview(allowed.test(access), "");
    }

    @Override
    public RulesReview selfSubjectRulesReview(String namespace) {
        read("selfSubjectRulesReview", namespace);
        return rules.apply(namespace);
    }

    // ---- writes -------------------------------------------------------------------------------------

    @Override
    public ObjectNode applyStatefulSet(ObjectNode statefulSet, String fieldManager, boolean force, boolean dryRun) {
        String ns = Objects.namespace(statefulSet);
        String name = Objects.name(statefulSet);
        synchronized (this) {
            fail("applyStatefulSet");
        }
        ObjectNode stored;
        synchronized (this) {
            Optional<ObjectNode> before = get("StatefulSet", ns, name);
            ObjectNode next = statefulSet.deepCopy();
            ObjectNode meta = Objects.child(next, "metadata");
            meta.put("namespace", ns);
            meta.put("uid", before.map(Objects::uid).orElse("uid-" + (++uids)));
            meta.put("generation", before.map(b -> b.path("metadata").path("generation").asLong(1) + 1).orElse(1L));
            before.ifPresent(b -> {
                if (b.has("status")) {
                    next.set("status", b.get("status"));
                }
            });
            if (dryRun) {
                stored = next;
            } else {
                meta.put("resourceVersion", String.valueOf(++resourceVersion));
                objects.put(key("StatefulSet", ns, name), next);
                stored = next.deepCopy();
            }
        }
        wrote(new Call("applyStatefulSet", ns, name, fieldManager + (force ? " force" : ""), dryRun));
        return stored;
    }

    @Override
    public ObjectNode patchClaimStorage(String namespace, String name, String quantity, Map<String, String> annotations, boolean dryRun) {
        ObjectNode out;
        synchronized (this) {
            fail("patchClaimStorage");
            ObjectNode c = objects.get(key("PersistentVolumeClaim", namespace, name));
            if (c == null) {
                throw error(404, "NotFound", "persistentvolumeclaims \"" + name + "\" not found");
            }
            ObjectNode next = c.deepCopy();
            Objects.child(Objects.child(Objects.child(next, "spec"), "resources"), "requests").put("storage", quantity);
            ObjectNode ann = Objects.child(Objects.child(next, "metadata"), "annotations");
            annotations.forEach((k, v) -> {
                if (v == null) {
                    ann.remove(k);
                } else {
                    ann.put(k, v);
                }
            });
            if (!dryRun) {
                ((ObjectNode) next.path("metadata")).put("resourceVersion", String.valueOf(++resourceVersion));
                objects.put(key("PersistentVolumeClaim", namespace, name), next);
            }
            out = next.deepCopy();
        }
        wrote(new Call("patchClaimStorage", namespace, name, quantity, dryRun));
        return patchAnswer.apply(out);
    }

    @Override
    public Optional<ObjectNode> deleteStatefulSetOrphan(String namespace, String name, String uid, boolean dryRun) {
        Optional<ObjectNode> out;
        synchronized (this) {
            writes.add(new Call("deleteStatefulSetOrphan", namespace, name, "uid=" + uid + " propagationPolicy=Orphan", dryRun));
            fail("deleteStatefulSetOrphan");
            ObjectNode s = objects.get(key("StatefulSet", namespace, name));
            if (s == null) {
                return Optional.empty();
            }
            if (!uid.equals(Objects.uid(s))) {
                throw error(409, "Conflict", "Precondition failed: UID in precondition: " + uid + ", UID in object meta: " + Objects.uid(s));
            }
            // as the API server answers a delete with propagationPolicy=Orphan: the object now terminating, its
            // finalizers with the garbage collector's "orphan" added, at a new resourceVersion
            // (staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go, updateForGracefulDeletionAndFinalizers);
            // the garbage collector's part is done at once here, the object removed
            ObjectNode terminating = s.deepCopy();
            ObjectNode meta = (ObjectNode) terminating.path("metadata");
            meta.put("deletionTimestamp", "2026-01-01T00:00:00Z");
            com.fasterxml.jackson.databind.node.ArrayNode finalizers = meta.has("finalizers") ? (com.fasterxml.jackson.databind.node.ArrayNode)
                    meta.get("finalizers") : meta.putArray("finalizers");
            if (!finalizers.toString().contains("\"orphan\"")) {
                finalizers.add("orphan");
            }
            if (!dryRun) {
                objects.remove(key("StatefulSet", namespace, name));
                meta.put("resourceVersion", String.valueOf(++resourceVersion));
            }
            out = Optional.of(terminating);
        }
        if (!dryRun) {
            afterWrite.accept(new Call("deleteStatefulSetOrphan", namespace, name, "uid=" + uid, false));
        }
        return out;
    }

    @Override
    public ObjectNode createStatefulSet(ObjectNode statefulSet, boolean dryRun) {
        return create("createStatefulSet", "StatefulSet", statefulSet, dryRun);
    }

    // ---- a copy's reads and writes --------------------------------------------------------------

    /** PersistentVolumes are cluster-scoped; this fake keys them under the namespace {@link Objects#namespace} gives them. */
    private static final String PV_KEY_NAMESPACE = "default";

    @Override
    public PersistentVolumeList listPersistentVolumes() {
        read("listPersistentVolumes", "");
        return persistentVolumesForbidden ? new PersistentVolumeList.Forbidden("persistentvolumes is forbidden")
                : new PersistentVolumeList.Visible(list("PersistentVolume", Optional.empty(), ""));
    }

    @Override
    public Optional<ObjectNode> getPersistentVolume(String name) {
        read("getPersistentVolume", name);
        return get("PersistentVolume", PV_KEY_NAMESPACE, name);
    }

    @Override
    public synchronized PodLog podLog(String namespace, String name) {
        read("podLog", namespace + "/" + name);
        if (!objects.containsKey(key("Pod", namespace, name))) {
            throw error(404, "NotFound", "pods \"" + name + "\" not found");
        }
        return logs.getOrDefault(namespace + "/" + name, new PodLog("", true));
    }

    @Override
    public synchronized PodLog podLogTail(String namespace, String name, int tailLines) {
        String[] lines = podLog(namespace, name).text().split("\n", -1);
        int end = lines.length > 0 && lines[lines.length - 1].isEmpty() ? lines.length - 1 : lines.length;
        StringBuilder tail = new StringBuilder();
        for (int i = Math.max(0, end - tailLines); i < end; i++) {
            tail.append(lines[i]).append('\n');
        }
        return new PodLog(tail.toString(), false);
    }

    @Override
    public ObjectNode patchVolumeReclaimPolicy(String volume, String policy, String resourceVersion, boolean dryRun) {
        return patchVolume("patchVolumeReclaimPolicy", volume, resourceVersion, "policy=" + policy, dryRun,
                pv -> Objects.child(pv, "spec").put("persistentVolumeReclaimPolicy", policy));
    }

    @Override
    public ObjectNode pointVolumeAtClaim(String volume, String namespace, String claim, String resourceVersion, boolean dryRun) {
        // as the merge patch KubeCluster sends: claimRef merged into, its uid, resourceVersion and fieldPath removed
        return patchVolume("pointVolumeAtClaim", volume, resourceVersion, "claimRef=" + namespace + "/" + claim, dryRun, pv -> {
            ObjectNode ref = Objects.child(Objects.child(pv, "spec"), "claimRef");
            ref.put("apiVersion", "v1").put("kind", "PersistentVolumeClaim").put("namespace", namespace).put("name", claim);
            ref.remove(List.of("uid", "resourceVersion", "fieldPath"));
        });
    }

    private ObjectNode patchVolume(String method, String volume, String readAt, String detail, boolean dryRun,
            java.util.function.Consumer<ObjectNode> change) {
        ObjectNode out;
        synchronized (this) {
            fail(method);
            ObjectNode pv = objects.get(key("PersistentVolume", PV_KEY_NAMESPACE, volume));
            if (pv == null) {
                throw error(404, "NotFound", "persistentvolumes \"" + volume + "\" not found");
            }
            if (!readAt.equals(pv.path("metadata").path("resourceVersion").asText())) {
                throw error(409, "Conflict", "Operation cannot be fulfilled on persistentvolumes \"" + volume
                        + "\": the object has been modified; please apply your changes to the latest version and try again");
            }
            ObjectNode next = pv.deepCopy();
            change.accept(next);
            if (!dryRun) {
                ((ObjectNode) next.path("metadata")).put("resourceVersion", String.valueOf(++resourceVersion));
                objects.put(key("PersistentVolume", PV_KEY_NAMESPACE, volume), next);
            }
            out = next.deepCopy();
        }
        wrote(new Call(method, "", volume, detail, dryRun));
        return out;
    }

    @Override
    public ObjectNode createClaim(ObjectNode claim, boolean dryRun) {
        return create("createClaim", "PersistentVolumeClaim", claim, dryRun);
    }

    @Override
    public ObjectNode createCopyPod(ObjectNode pod, boolean dryRun) {
        if (!CopyPodLog.hasCopyPodLabels(pod)) {
            throw new IllegalArgumentException("only a copy pod is created, not " + Objects.name(pod));
        }
        return create("createCopyPod", "Pod", pod, dryRun);
    }

    @Override
    public Optional<ObjectNode> deleteCopyPod(String namespace, String name, String uid) {
        synchronized (this) {
            fail("deleteCopyPod");
            ObjectNode pod = objects.get(key("Pod", namespace, name));
            if (pod == null) {
                return Optional.empty();
            }
            if (!CopyPodLog.hasCopyPodLabels(pod) || !uid.equals(Objects.uid(pod))) {
                throw new IllegalStateException("pod " + namespace + "/" + name + " is not the copy pod this run created");
            }
            writes.add(new Call("deleteCopyPod", namespace, name, "uid=" + uid, false));
            objects.remove(key("Pod", namespace, name));
            ++resourceVersion;
        }
        afterWrite.accept(new Call("deleteCopyPod", namespace, name, "uid=" + uid, false));
        return Optional.of(json("{}"));
    }

    @Override
    public Optional<ObjectNode> deleteClaim(ClaimDeleteAllowed allowed) {
        String namespace = allowed.namespace();
        String name = allowed.claim();
        ObjectNode claim;
        synchronized (this) {
            writes.add(new Call("deleteClaim", namespace, name, "uid=" + allowed.uid(), false));
            fail("deleteClaim");
            claim = objects.get(key("PersistentVolumeClaim", namespace, name));
            if (claim == null) {
                return Optional.empty();
            }
            if (!allowed.uid().equals(Objects.uid(claim))) {
                throw error(409, "Conflict", "Precondition failed: UID in precondition: " + allowed.uid() + ", UID in object meta: "
                        + Objects.uid(claim));
            }
            objects.remove(key("PersistentVolumeClaim", namespace, name));
            ++resourceVersion;
        }
        afterWrite.accept(new Call("deleteClaim", namespace, name, "uid=" + allowed.uid(), false));
        return Optional.of(claim.deepCopy());
    }

    @Override
    public Optional<ObjectNode> getLease(String namespace, String name) {
        read("getLease", namespace + "/" + name);
        return get("Lease", namespace, name);
    }

    @Override
    public ObjectNode createLease(ObjectNode lease) {
        return create("createLease", "Lease", lease, false);
    }

    @Override
    public ObjectNode updateLease(ObjectNode lease) {
        return update("updateLease", "Lease", lease);
    }

    @Override
    public Optional<ObjectNode> getSecret(String namespace, String name) {
        read("getSecret", namespace + "/" + name);
        return get("Secret", namespace, name);
    }

    @Override
    public ObjectNode createSecret(ObjectNode secret) {
        return create("createSecret", "Secret", secret, false);
    }

    @Override
    public ObjectNode updateSecret(ObjectNode secret) {
        return update("updateSecret", "Secret", secret);
    }

    @Override
    public Optional<ObjectNode> deleteRecordSecret(String namespace, String name, String uid) {
        synchronized (this) {
            writes.add(new Call("deleteRecordSecret", namespace, name, "uid=" + uid, false));
            fail("deleteRecordSecret");
            ObjectNode s = objects.get(key("Secret", namespace, name));
            if (s == null) {
                return Optional.empty();
            }
            if (!uid.equals(Objects.uid(s))) {
                throw error(409, "Conflict", "Precondition failed: UID in precondition: " + uid);
            }
            objects.remove(key("Secret", namespace, name));
            return Optional.of(s.deepCopy());
        }
    }

    @Override
    public ObjectNode createEvent(ObjectNode event) {
        synchronized (this) {
            writes.add(new Call("createEvent", Objects.namespace(event), event.path("reason").asText(), event.path("apiVersion").asText(),
                    false));
            fail("createEvent");
            eventsCreated.add(event.deepCopy());
        }
        return event.deepCopy();
    }

    @Override
    public void evictPod(String namespace, String name, boolean dryRun) {
        synchronized (this) {
            writes.add(new Call("evictPod", namespace, name, "", dryRun));
            fail("evictPod");
            if (!objects.containsKey(key("Pod", namespace, name))) {
                throw error(404, "NotFound", "pods \"" + name + "\" not found");
            }
            if (!dryRun) {
                objects.remove(key("Pod", namespace, name));
                ++resourceVersion;
            }
        }
        if (!dryRun) {
            afterWrite.accept(new Call("evictPod", namespace, name, "", false));
        }
    }
}
