package dev.stsresize.sim.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.SimCluster;

/** What every controller shares: the cluster, the kinds, the pace, an event recorder and the manager that schedules it. */
record Context(SimCluster sim, Kinds kinds, Timings timings, EventRecorder events, ControllerManager manager) {
    Api api(String fieldManager) {
        return new Api(sim.registry(), fieldManager);
    }

    ObjectNode storageClassOf(JsonNode claim) {
        String name = claim.path("spec").path("storageClassName").asText("");
        return name.isEmpty() ? null : sim.store().get(kinds.storageClasses(), "", name);
    }

    /**
     * Which resizer serves a claim's class: the class's {@value ControllerManager#RESIZER_ANNOTATION}
     * annotation ({@code online}, {@code offline}, {@code infeasible}, {@code none}); without it
     * {@code online} for an expandable class (a CSI driver with online expansion), else {@code none}.
     * A class of {@code kubernetes.io/no-provisioner} is always {@code none}, whatever it says, and so is a
     * CSI provisioner without a CSIDriver object of its name: external-resizer runs as a sidecar of the
     * driver's controller (kubernetes-csi/external-resizer), so where the driver is not deployed (no
     * CSIDriver registered) nothing resizes. An in-tree name is the CSI driver that CSI migration hands it
     * to (csi-translation-lib translate.go, {@link #MIGRATED_TO}).
     */
    /** csi-translation-lib (translate.go inTreePlugins and its plugins' names): in-tree plugin → CSI driver. */
    static final java.util.Map<String, String> MIGRATED_TO = java.util.Map.of(
            "kubernetes.io/aws-ebs", "ebs.csi.aws.com", "kubernetes.io/gce-pd", "pd.csi.storage.gke.io",
            "kubernetes.io/azure-disk", "disk.csi.azure.com", "kubernetes.io/azure-file", "file.csi.azure.com",
            "kubernetes.io/cinder", "cinder.csi.openstack.org", "kubernetes.io/vsphere-volume", "csi.vsphere.vmware.com",
            "kubernetes.io/portworx-volume", "pxd.portworx.com");

    private boolean csiDriverDeployed(String provisioner) {
        String driver = MIGRATED_TO.getOrDefault(provisioner, provisioner);
        return !driver.isEmpty() && sim.store().get(kinds.csiDrivers(), "", driver) != null;
    }

    String resizerOf(JsonNode claim) {
        ObjectNode sc = storageClassOf(claim);
        if (sc == null) {
            return "none";
        }
        if (VolumeBinder.NO_PROVISIONER.equals(sc.path("provisioner").asText())) {
            return "none"; // no plugin and no external resizer can expand a local volume: ExternalExpanding, nothing more
        }
        if (!csiDriverDeployed(sc.path("provisioner").asText(""))) {
            return "none";
        }
        String declared = sc.path("metadata").path("annotations").path(ControllerManager.RESIZER_ANNOTATION).asText("");
        if (!declared.isEmpty()) {
            return declared;
        }
        return sc.path("allowVolumeExpansion").asBoolean(false) ? "online" : "none";
    }
}
