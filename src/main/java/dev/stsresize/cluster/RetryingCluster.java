package dev.stsresize.cluster;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Retries transient failures of another {@link Cluster}: 429 after the server's Retry-After, 5xx and
 * no answer with bounded exponential backoff (see {@link RetryPolicy}). Safe because every method of
 * the port is idempotent; a 409 is passed on at once, for the caller to re-read.
 *
 * <p>A server that refused the connection before it ever answered this client is not waited for: it
 * is a wrong address or a cluster that is down, and kubectl says so at once. Once it has answered, a
 * refusal is a restart mid-run, and is ridden out like any other lost connection.
 */
public final class RetryingCluster implements Cluster {
    private final Cluster delegate;
    private final RetryPolicy policy;
    private final Sleeper sleeper;
    /** Whether the server has answered any request of this client, success or error. */
    private final AtomicBoolean answeredOnce = new AtomicBoolean();

    public RetryingCluster(Cluster delegate, RetryPolicy policy, Sleeper sleeper) {
        this.delegate = delegate;
        this.policy = policy;
        this.sleeper = sleeper;
    }

    public RetryingCluster(Cluster delegate) {
        this(delegate, RetryPolicy.DEFAULT, Sleeper.REAL);
    }

    private <T> T retry(Supplier<T> call) {
        for (int attempt = 1; ; attempt++) {
            try {
                T answer = call.get();
                answeredOnce.set(true);
                return answer;
            } catch (ClusterException failure) {
                answeredOnce.set(true);
                waitOrThrow(failure, attempt);
            } catch (ServerUnreachable failure) {
                if (failure.refusedConnection() && !answeredOnce.get()) {
                    throw failure;
                }
                waitOrThrow(failure, attempt);
            }
        }
    }

    private void waitOrThrow(RuntimeException failure, int attempt) {
        Duration delay = policy.delayAfter(failure, attempt);
        if (delay == null) {
            throw failure;
        }
        try {
            sleeper.sleep(delay);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failure;
        }
    }

    private void retry(Runnable call) {
        retry(() -> {
            call.run();
            return null;
        });
    }

    @Override
    public ObjectList listStatefulSets(NamespaceScope scope) {
        return retry(() -> delegate.listStatefulSets(scope));
    }

    @Override
    public ObjectList listClaims(NamespaceScope scope) {
        return retry(() -> delegate.listClaims(scope));
    }

    @Override
    public StorageClassList listStorageClasses() {
        return retry(delegate::listStorageClasses);
    }

    @Override
    public ObjectNode serverVersion() {
        return retry(delegate::serverVersion);
    }

    @Override
    public CsiDriverList listCsiDrivers() {
        return retry(delegate::listCsiDrivers);
    }

    @Override
    public PersistentVolumeList listPersistentVolumes() {
        return retry(delegate::listPersistentVolumes);
    }

    @Override
    public ObjectList listPods(String namespace, String labelSelector) {
        return retry(() -> delegate.listPods(namespace, labelSelector));
    }

    @Override
    public ObjectList listPods(NamespaceScope scope) {
        return retry(() -> delegate.listPods(scope));
    }

    @Override
    public ObjectList listResourceQuotas(NamespaceScope scope) {
        return retry(() -> delegate.listResourceQuotas(scope));
    }

    /** Not retried: its caller bounds the time, and a node that did not answer is said, not waited for again. */
    @Override
    public ObjectNode nodeSummary(String node, Duration timeout) {
        return delegate.nodeSummary(node, timeout);
    }

    /** Not retried: bounded by its caller, and a backend's error is an answer to read. */
    @Override
    public HttpAnswer serviceProxyGet(String namespace, String service, String path, Map<String, String> query,
            Duration timeout) {
        return delegate.serviceProxyGet(namespace, service, path, query, timeout);
    }

    @Override
    public ObjectList listControllerRevisions(String namespace, String labelSelector) {
        return retry(() -> delegate.listControllerRevisions(namespace, labelSelector));
    }

    @Override
    public ObjectList listClaimEvents(String namespace) {
        return retry(() -> delegate.listClaimEvents(namespace));
    }

    @Override
    public Optional<ObjectNode> getStatefulSet(String namespace, String name) {
        return retry(() -> delegate.getStatefulSet(namespace, name));
    }

    @Override
    public Optional<ObjectNode> getClaim(String namespace, String name) {
        return retry(() -> delegate.getClaim(namespace, name));
    }

    @Override
    public Optional<ObjectNode> getPod(String namespace, String name) {
        return retry(() -> delegate.getPod(namespace, name));
    }

    @Override
    public Optional<ObjectNode> getPersistentVolume(String name) {
        return retry(() -> delegate.getPersistentVolume(name));
    }

    @Override
    public PodLog podLog(String namespace, String name) {
        return retry(() -> delegate.podLog(namespace, name));
    }

    @Override
    public PodLog podLogTail(String namespace, String name, int tailLines) {
        return retry(() -> delegate.podLogTail(namespace, name, tailLines));
    }

    @Override
    public ObjectNode patchVolumeReclaimPolicy(String volume, String policy, String resourceVersion, boolean dryRun) {
        return retry(() -> delegate.patchVolumeReclaimPolicy(volume, policy, resourceVersion, dryRun));
    }

    @Override
    public ObjectNode pointVolumeAtClaim(String volume, String namespace, String claim, String resourceVersion, boolean dryRun) {
        return retry(() -> delegate.pointVolumeAtClaim(volume, namespace, claim, resourceVersion, dryRun));
    }

    @Override
    public ObjectNode createClaim(ObjectNode claim, boolean dryRun) {
        return retry(() -> delegate.createClaim(claim, dryRun));
    }

    @Override
    public ObjectNode createCopyPod(ObjectNode pod, boolean dryRun) {
        return retry(() -> delegate.createCopyPod(pod, dryRun));
    }

    @Override
    public Optional<ObjectNode> deleteCopyPod(String namespace, String name, String uid) {
        return retry(() -> delegate.deleteCopyPod(namespace, name, uid));
    }

    @Override
    public Optional<ObjectNode> deleteClaim(ClaimDeleteAllowed allowed) {
        return retry(() -> delegate.deleteClaim(allowed));
    }

    /** Opening is retried; a stream that ends later is the caller's to resume from its last resourceVersion. */
    @Override
    public ObjectWatch watch(WatchedKind kind, String namespace, String name, String fromResourceVersion) {
        return retry(() -> delegate.watch(kind, namespace, name, fromResourceVersion));
    }

    @Override
    public AccessReview selfSubjectAccessReview(ResourceAccess access) {
        return retry(() -> delegate.selfSubjectAccessReview(access));
    }

    @Override
    public RulesReview selfSubjectRulesReview(String namespace) {
        return retry(() -> delegate.selfSubjectRulesReview(namespace));
    }

    @Override
    public ObjectNode applyStatefulSet(ObjectNode statefulSet, String fieldManager, boolean force, boolean dryRun) {
        return retry(() -> delegate.applyStatefulSet(statefulSet, fieldManager, force, dryRun));
    }

    @Override
    public ObjectNode patchClaimStorage(String namespace, String name, String quantity, Map<String, String> annotations, boolean dryRun) {
        return retry(() -> delegate.patchClaimStorage(namespace, name, quantity, annotations, dryRun));
    }

    @Override
    public Optional<ObjectNode> deleteStatefulSetOrphan(String namespace, String name, String uid, boolean dryRun) {
        return retry(() -> delegate.deleteStatefulSetOrphan(namespace, name, uid, dryRun));
    }

    @Override
    public ObjectNode createStatefulSet(ObjectNode statefulSet, boolean dryRun) {
        return retry(() -> delegate.createStatefulSet(statefulSet, dryRun));
    }

    @Override
    public Optional<ObjectNode> getLease(String namespace, String name) {
        return retry(() -> delegate.getLease(namespace, name));
    }

    @Override
    public ObjectNode createLease(ObjectNode lease) {
        return retry(() -> delegate.createLease(lease));
    }

    @Override
    public ObjectNode updateLease(ObjectNode lease) {
        return retry(() -> delegate.updateLease(lease));
    }

    @Override
    public Optional<ObjectNode> getSecret(String namespace, String name) {
        return retry(() -> delegate.getSecret(namespace, name));
    }

    @Override
    public ObjectNode createSecret(ObjectNode secret) {
        return retry(() -> delegate.createSecret(secret));
    }

    @Override
    public ObjectNode updateSecret(ObjectNode secret) {
        return retry(() -> delegate.updateSecret(secret));
    }

    @Override
    public Optional<ObjectNode> deleteRecordSecret(String namespace, String name, String uid) {
        return retry(() -> delegate.deleteRecordSecret(namespace, name, uid));
    }

    @Override
    public ObjectNode createEvent(ObjectNode event) {
        return retry(() -> delegate.createEvent(event));
    }

    @Override
    public void evictPod(String namespace, String name, boolean dryRun) {
        retry(() -> delegate.evictPod(namespace, name, dryRun));
    }
}
