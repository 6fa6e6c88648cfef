package dev.stsresize.tui;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.ForwardingCluster;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The Cluster port as one wizard's Converger sees it: every call passes through ({@link ForwardingCluster}), and two things more.
 * The orphan delete is refused unless the operator passed the name gate ({@code deleteAllowed}), a
 * second lock behind the Converger's own {@code Gate}. And the writes that start a step of the
 * wizard are reported ({@code boundary}): the first apply after the delete starts the re-apply, the
 * first read of the StatefulSet after it stands again starts the verification.
 */
final class GuardedCluster extends ForwardingCluster {
    private final BooleanSupplier deleteAllowed;
    private final Consumer<WizardStep> boundary;
    private volatile boolean deleted;
    private volatile boolean standing;
    private volatile boolean verifying;

    GuardedCluster(Cluster cluster, BooleanSupplier deleteAllowed, Consumer<WizardStep> boundary) {
        super(cluster);
        this.deleteAllowed = deleteAllowed;
        this.boundary = boundary;
    }

    @Override
    public Optional<ObjectNode> deleteStatefulSetOrphan(String namespace, String name, String uid, boolean dryRun) {
        if (!dryRun && !deleteAllowed.getAsBoolean()) {
            throw new IllegalStateException("the orphan delete of StatefulSet " + namespace + "/" + name
                    + " was refused: the operator has not typed its name at the wizard's delete gate");
        }
        Optional<ObjectNode> out = super.deleteStatefulSetOrphan(namespace, name, uid, dryRun);
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
        ObjectNode out = super.applyStatefulSet(statefulSet, fieldManager, force, dryRun);
        if (deleted && !dryRun) {
            standing = true;
        }
        return out;
    }

    @Override
    public ObjectNode createStatefulSet(ObjectNode statefulSet, boolean dryRun) {
        ObjectNode out = super.createStatefulSet(statefulSet, dryRun);
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
        return super.getStatefulSet(namespace, name);
    }
}
