package dev.stsresize.cluster;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * A {@link Cluster} that passes every call to another: the base of a decorator that changes a few
 * calls (the wizard's guard of the orphan delete) and forwards the rest unchanged.
 */
public abstract class ForwardingCluster implements Cluster {
    private final Cluster delegate;

    protected ForwardingCluster(Cluster delegate) {
        this.delegate = delegate;
    }

    @Override
    public ObjectList listStatefulSets(NamespaceScope scope) {
        return delegate.listStatefulSets(scope);
    }

    @Override
    public ObjectList listClaims(NamespaceScope scope) {
        return delegate.listClaims(scope);
    }

    @Override
    public StorageClassList listStorageClasses() {
        return delegate.listStorageClasses();
    }

    @Override
    public ObjectList listPods(String namespace, String labelSelector) {
        return delegate.listPods(namespace, labelSelector);
    }

    @Override
    public ObjectList listPods(NamespaceScope scope) {
        return delegate.listPods(scope);
    }

    @Override
    public ObjectList listResourceQuotas(NamespaceScope scope) {
        return delegate.listResourceQuotas(scope);
    }

    @Override
    public ObjectNode nodeSummary(String node, Duration timeout) {
        return delegate.nodeSummary(node, timeout);
    }

    @Override
    public HttpAnswer serviceProxyGet(String namespace, String service, String path, Map<String, String> query,
            Duration timeout) {
        return delegate.serviceProxyGet(namespace, service, path, query, timeout);
    }

    @Override
    public ObjectList listControllerRevisions(String namespace, String labelSelector) {
        return delegate.listControllerRevisions(namespace, labelSelector);
    }

    @Override
    public Optional<ObjectNode> getStatefulSet(String namespace, String name) {
        return delegate.getStatefulSet(namespace, name);
    }

    @Override
    public Optional<ObjectNode> getClaim(String namespace, String name) {
        return delegate.getClaim(namespace, name);
    }

    @Override
    public Optional<ObjectNode> getPod(String namespace, String name) {
        return delegate.getPod(namespace, name);
    }

    @Override
    public ObjectWatch watch(WatchedKind kind, String namespace, String name, String fromResourceVersion) {
        return delegate.watch(kind, namespace, name, fromResourceVersion);
    }

    @Override
    public AccessReview selfSubjectAccessReview(ResourceAccess access) {
        return delegate.selfSubjectAccessReview(access);
    }

    @Override
    public ObjectNode applyStatefulSet(ObjectNode statefulSet, String fieldManager, boolean force, boolean dryRun) {
        return delegate.applyStatefulSet(statefulSet, fieldManager, force, dryRun);
    }

    @Override
    public ObjectNode patchClaimStorage(String namespace, String name, String quantity, boolean dryRun) {
        return delegate.patchClaimStorage(namespace, name, quantity, dryRun);
    }

    @Override
    public Optional<ObjectNode> deleteStatefulSetOrphan(String namespace, String name, String uid, boolean dryRun) {
        return delegate.deleteStatefulSetOrphan(namespace, name, uid, dryRun);
    }

    @Override
    public ObjectNode createStatefulSet(ObjectNode statefulSet, boolean dryRun) {
        return delegate.createStatefulSet(statefulSet, dryRun);
    }

    @Override
    public Optional<ObjectNode> getLease(String namespace, String name) {
        return delegate.getLease(namespace, name);
    }

    @Override
    public ObjectNode createLease(ObjectNode lease) {
        return delegate.createLease(lease);
    }

    @Override
    public ObjectNode updateLease(ObjectNode lease) {
        return delegate.updateLease(lease);
    }

    @Override
    public Optional<ObjectNode> getSecret(String namespace, String name) {
        return delegate.getSecret(namespace, name);
    }

    @Override
    public ObjectNode createSecret(ObjectNode secret) {
        return delegate.createSecret(secret);
    }

    @Override
    public ObjectNode updateSecret(ObjectNode secret) {
        return delegate.updateSecret(secret);
    }

    @Override
    public Optional<ObjectNode> deleteRecordSecret(String namespace, String name, String uid) {
        return delegate.deleteRecordSecret(namespace, name, uid);
    }

    @Override
    public ObjectNode createEvent(ObjectNode event) {
        return delegate.createEvent(event);
    }

    @Override
    public void evictPod(String namespace, String name, boolean dryRun) {
        delegate.evictPod(namespace, name, dryRun);
    }
}
