package dev.stsresize.tui;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.AccessReview;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.NamespaceScope;
import dev.stsresize.cluster.ObjectList;
import dev.stsresize.cluster.ObjectWatch;
import dev.stsresize.cluster.ResourceAccess;
import dev.stsresize.cluster.StorageClassList;
import dev.stsresize.cluster.WatchedKind;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The Cluster port as one wizard's Converger sees it: every call passes through, and two things more.
 * The orphan delete is refused unless the operator passed the name gate ({@code deleteAllowed}), a
 * second lock behind the Converger's own {@code Gate}. And the writes that start a step of the
 * wizard are reported ({@code boundary}): the first apply after the delete starts the re-apply, the
 * first read of the StatefulSet after it stands again starts the verification.
 */
final class GuardedCluster implements Cluster {
    private final Cluster cluster;
    private final BooleanSupplier deleteAllowed;
    private final Consumer<WizardStep> boundary;
    private volatile boolean deleted;
    private volatile boolean standing;
    private volatile boolean verifying;

    GuardedCluster(Cluster cluster, BooleanSupplier deleteAllowed, Consumer<WizardStep> boundary) {
        this.cluster = cluster;
        this.deleteAllowed = deleteAllowed;
        this.boundary = boundary;
    }

    @Override
    public Optional<ObjectNode> deleteStatefulSetOrphan(String namespace, String name, String uid, boolean dryRun) {
        if (!dryRun && !deleteAllowed.getAsBoolean()) {
            throw new IllegalStateException("the orphan delete of StatefulSet " + namespace + "/" + name
                    + " was refused: the operator has not typed its name at the wizard's delete gate");
        }
        Optional<ObjectNode> out = cluster.deleteStatefulSetOrphan(namespace, name, uid, dryRun);
        if (!dryRun) {
            deleted = true;
        }
        return out;
    }

    @Override
    public ObjectNode applyStatefulSet(ObjectNode statefulSet, String fieldManager, boolean force, boolean dryRun) {
        if (deleted && !standing) {
            boundary.accept(WizardStep.REAPPLY);
        }
        ObjectNode out = cluster.applyStatefulSet(statefulSet, fieldManager, force, dryRun);
        if (deleted && !dryRun) {
            standing = true;
        }
        return out;
    }

    @Override
    public ObjectNode createStatefulSet(ObjectNode statefulSet, boolean dryRun) {
        ObjectNode out = cluster.createStatefulSet(statefulSet, dryRun);
        if (deleted && !dryRun) {
            standing = true;
        }
        return out;
    }

    @Override
    public Optional<ObjectNode> getStatefulSet(String namespace, String name) {
        if (standing && !verifying) {
            verifying = true;
            boundary.accept(WizardStep.VERIFY);
        }
        return cluster.getStatefulSet(namespace, name);
    }

    @Override
    public ObjectList listStatefulSets(NamespaceScope scope) {
        return cluster.listStatefulSets(scope);
    }

    @Override
    public ObjectList listClaims(NamespaceScope scope) {
        return cluster.listClaims(scope);
    }

    @Override
    public StorageClassList listStorageClasses() {
        return cluster.listStorageClasses();
    }

    @Override
    public ObjectList listPods(String namespace, String labelSelector) {
        return cluster.listPods(namespace, labelSelector);
    }

    @Override
    public ObjectList listControllerRevisions(String namespace, String labelSelector) {
        return cluster.listControllerRevisions(namespace, labelSelector);
    }

    @Override
    public Optional<ObjectNode> getClaim(String namespace, String name) {
        return cluster.getClaim(namespace, name);
    }

    @Override
    public Optional<ObjectNode> getPod(String namespace, String name) {
        return cluster.getPod(namespace, name);
    }

    @Override
    public ObjectWatch watch(WatchedKind kind, String namespace, String name, String fromResourceVersion) {
        return cluster.watch(kind, namespace, name, fromResourceVersion);
    }

    @Override
    public AccessReview selfSubjectAccessReview(ResourceAccess access) {
        return cluster.selfSubjectAccessReview(access);
    }

    @Override
    public ObjectNode patchClaimStorage(String namespace, String name, String quantity, boolean dryRun) {
        return cluster.patchClaimStorage(namespace, name, quantity, dryRun);
    }

    @Override
    public Optional<ObjectNode> getLease(String namespace, String name) {
        return cluster.getLease(namespace, name);
    }

    @Override
    public ObjectNode createLease(ObjectNode lease) {
        return cluster.createLease(lease);
    }

    @Override
    public ObjectNode updateLease(ObjectNode lease) {
        return cluster.updateLease(lease);
    }

    @Override
    public ObjectNode createEvent(ObjectNode event) {
        return cluster.createEvent(event);
    }

    @Override
    public void evictPod(String namespace, String name, boolean dryRun) {
        cluster.evictPod(namespace, name, dryRun);
    }
}
