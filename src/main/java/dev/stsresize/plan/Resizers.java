package dev.stsresize.plan;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Whether anything in the cluster can grow the volumes of a StorageClass's provisioner. The API
 * server accepts a bigger request on any class that sets {@code allowVolumeExpansion}; what grows the
 * volume is a resizer, and where there is none the claim's request stays above its capacity for good
 * (kube-controller-manager's expand controller, pkg/controller/volume/expand/expand_controller.go
 * syncHandler, only posts {@code ExternalExpanding} "waiting for an external controller to expand this
 * PVC" and never looks again).
 *
 * <ul>
 *   <li>{@code kubernetes.io/no-provisioner} provisions nothing: its volumes are local volumes made by
 *       hand, and no in-tree plugin or CSI resizer grows them.
 *   <li>A CSI driver is grown by its external-resizer sidecar, which runs only where the driver is
 *       deployed; a deployed driver registers a CSIDriver object named after it. A provisioner with no
 *       CSIDriver is therefore taken to have no resizer.
 *   <li>The in-tree names that CSI migration hands to a CSI driver (csi-translation-lib's translate.go,
 *       the {@code inTreePlugins} map, and its plugins' driver names) need that driver's CSIDriver: on
 *       v1.32 their in-tree code is gone and the expand controller gives their claims to the CSI driver's
 *       resizer ({@code GetCSINameFromInTreeName}). Portworx is the exception: its in-tree plugin is still
 *       registered on v1.32 (cmd/kube-controller-manager/app/plugins_providers.go) and expands its own
 *       volumes when the cluster turns {@code CSIMigrationPortworx} off, so a missing driver is a warning.
 *   <li>Other {@code kubernetes.io/} names are in-tree plugins without CSI migration (rbd, cephfs,
 *       glusterfs…), removed from recent releases: whether one grows depends on the cluster's version,
 *       which the decision does not know, so it is a warning, never a refusal.
 * </ul>
 */
public final class Resizers {
    public static final String NO_PROVISIONER = "kubernetes.io/no-provisioner";
    private static final String PORTWORX = "kubernetes.io/portworx-volume";
    private static final String IN_TREE_PREFIX = "kubernetes.io/";

    /** csi-translation-lib: each in-tree plugin name and the CSI driver that CSI migration hands it to. */
    static final Map<String, String> MIGRATED_TO = Map.of(
            "kubernetes.io/aws-ebs", "ebs.csi.aws.com",
            "kubernetes.io/gce-pd", "pd.csi.storage.gke.io",
            "kubernetes.io/azure-disk", "disk.csi.azure.com",
            "kubernetes.io/azure-file", "file.csi.azure.com",
            "kubernetes.io/cinder", "cinder.csi.openstack.org",
            "kubernetes.io/vsphere-volume", "csi.vsphere.vmware.com",
            PORTWORX, "pxd.portworx.com");

    /** What the check says of one provisioner. */
    public sealed interface Answer {
        /** A resizer exists (or nothing is known against it and nothing need be said). */
        record Present() implements Answer {}

        /** No resizer exists: the claims would never grow. {@code why} names the provisioner and the fix. */
        record Absent(String why) implements Answer {}

        /** Whether a resizer exists could not be checked; {@code warning} says why and what to check. */
        record Unchecked(String warning) implements Answer {}
    }

    private final Set<String> drivers;
    private final boolean known;

    private Resizers(Set<String> drivers, boolean known) {
        this.drivers = drivers;
        this.known = known;
    }

    /** The CSIDriver objects of the cluster, as listed. */
    public static Resizers of(List<ObjectNode> csiDrivers) {
        Set<String> names = new TreeSet<>();
        for (ObjectNode d : csiDrivers) {
            String name = Metadata.text(d, "metadata", "name");
            if (name != null) {
                names.add(name);
            }
        }
        return new Resizers(names, true);
    }

    /** The CSIDrivers could not be read (403, or a snapshot without them): CSI classes are warned of, not refused. */
    public static Resizers unknown() {
        return new Resizers(Set.of(), false);
    }

    public boolean known() {
        return known;
    }

    /** The answer for the class named {@code className} whose provisioner is {@code provisioner}. */
    public Answer check(String className, String provisioner) {
        String cls = "StorageClass \"" + className + "\"";
        if (provisioner == null || provisioner.isEmpty()) {
            return new Answer.Present();
        }
        if (provisioner.equals(NO_PROVISIONER)) {
            return new Answer.Absent(cls + " has provisioner " + NO_PROVISIONER + ", whose volumes are made by hand"
                    + " (local volumes) and which no resizer grows, whatever allowVolumeExpansion says; the claim's request"
                    + " would stay above its capacity for good. Keep the size, or move the data to a class whose CSI driver"
                    + " supports expansion (and set allowVolumeExpansion: false on \"" + className + "\")");
        }
        Optional<String> noneAtAll = DriverLimits.withoutResizer(provisioner);
        if (noneAtAll.isPresent()) {
            // known to ship no resizer: whether the CSIDrivers could be read changes nothing
            return new Answer.Absent(cls + " has provisioner " + provisioner + ", with no resizer; the claim's request would stay"
                    + " above its capacity for good: " + noneAtAll.get());
        }
        String driver = MIGRATED_TO.get(provisioner);
        if (driver == null && provisioner.startsWith(IN_TREE_PREFIX)) {
            return new Answer.Unchecked(cls + " has the in-tree provisioner " + provisioner + ", which has no CSI migration"
                    + " and was removed from recent Kubernetes releases: unless this cluster's version still grows its"
                    + " volumes, the claims will wait for a resizer that never comes");
        }
        String named = driver == null ? provisioner : driver;
        String via = driver == null ? "" : " (CSI migration hands in-tree " + provisioner + " to it)";
        if (!known) {
            return new Answer.Unchecked("the CSIDrivers could not be read, so whether CSI driver " + named + via + " of " + cls
                    + " is installed with a resizer is unchecked: if it is not, the claims will never grow"
                    + " (kubectl get csidriver " + named + ")");
        }
        if (drivers.contains(named)) {
            return new Answer.Present();
        }
        if (PORTWORX.equals(provisioner)) {
            return new Answer.Unchecked(cls + " has the in-tree provisioner " + provisioner + " and no CSIDriver " + named
                    + " exists: its volumes grow only if the cluster turns CSIMigrationPortworx off (it is on by default"
                    + " since v1.31); otherwise install the Portworx CSI driver first");
        }
        return new Answer.Absent(cls + " has provisioner " + provisioner + via + " but no CSIDriver \"" + named
                + "\" exists in the cluster, so no external-resizer serves it (a non-CSI external provisioner has none at all);"
                + " the claim's request would stay above its capacity for good. Deploy the " + named + " CSI driver with its"
                + " resizer (external-resizer) and CSIDriver object, or keep the size");
    }
}
