package dev.stsresize.plan;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;

/**
 * What real CSI drivers are known not to do, in one table: per driver, what to check before the first write,
 * the texts its failures carry, and the remedy in one sentence, each row with the issues it is taken from.
 * {@code converge.Assessor} asks it before writing ({@link #refusal}, {@link #warning}) and the waits ask it
 * about what the resizers say ({@link #failure}, {@link #aside}); {@link Resizers} asks it about provisioners
 * that have no resizer at all ({@link #withoutResizer}). A driver not in the table is met as before.
 */
public final class DriverLimits {
    private DriverLimits() {}

    /** What a row changes. */
    public enum Effect {
        /** refused before any write when the class lacks a parameter */
        REFUSED_WITHOUT_PARAMETER,
        /** warned before any write when a claim grows across a size */
        WARNED_ACROSS_SIZE,
        /** the wait for capacity ends at the first failure that carries the text */
        ENDS_THE_WAIT,
        /** no resizer at all: the plan refuses, naming the copy migration */
        NO_RESIZER,
        /** a text that looks like a failure and is not one */
        NOT_A_FAILURE
    }

    /**
     * One row.
     *
     * @param drivers provisioner names ("*" for any); a name also matches with a prefix ending in "." (Rook's
     *     {@code rook-ceph.rbd.csi.ceph.com})
     * @param texts the words of its failures (any one matches)
     * @param remedy what to do, one sentence
     * @param sources the issues the row is taken from
     */
    public record Limit(String id, List<String> drivers, Effect effect, List<String> texts, String remedy, List<String> sources) {
        boolean serves(String provisioner) {
            if (provisioner == null || provisioner.isEmpty()) {
                return drivers.contains("*");
            }
            return drivers.stream().anyMatch(d -> d.equals("*") || d.equals(provisioner) || provisioner.endsWith("." + d));
        }

        boolean says(String message) {
            return message != null && texts.stream().anyMatch(message::contains);
        }

        /** The remedy with the sources, as every view prints a row. */
        public String advice() {
            return remedy + " (known limit of " + String.join(", ", drivers) + ": " + String.join(", ", sources) + ")";
        }
    }

    /** The parameter without which a Ceph CSI class never expands. */
    public static final String CEPH_EXPAND_SECRET = "csi.storage.k8s.io/controller-expand-secret-name";
    /** Azure's limit for growing an attached disk: 4 TiB less 1 GiB. */
    static final BigDecimal AZURE_ATTACHED_LIMIT = BigDecimal.valueOf(4095L << 30);

    /** The table. Its order is the order rows are tried in. */
    public static final List<Limit> ROWS = List.of(
            new Limit("ceph-expand-secret", List.of("rbd.csi.ceph.com", "cephfs.csi.ceph.com"), Effect.REFUSED_WITHOUT_PARAMETER,
                    List.of("provided secret is empty", "error getting secret"),
                    "the class has no " + CEPH_EXPAND_SECRET + " (with its -namespace), so ControllerExpandVolume gets no"
                            + " credentials and its volumes can never be resized; class parameters are immutable and a PV keeps"
                            + " the secret reference it was provisioned with, so create a class that names the expand secret"
                            + " (Rook: rook-csi-rbd-provisioner or rook-csi-cephfs-provisioner) and move the data to claims of it",
                    List.of("https://github.com/ceph/ceph-csi/issues/783", "https://github.com/rook/rook/issues/4877",
                            "https://github.com/rook/rook/issues/5379")),
            new Limit("ebs-modification-rate", List.of("ebs.csi.aws.com"), Effect.ENDS_THE_WAIT,
                    List.of("VolumeModificationRateExceeded"),
                    "EBS modifies a volume again only after its previous modification has completed, at most four times in a"
                            + " rolling 24 hours (before AWS's change of 15 January 2026 the text asked for 6 hours between"
                            + " modifications); retry the apply once the text's wait is over, or give the request back with"
                            + " kubectl stsresize revert",
                    List.of("https://github.com/kubernetes/kubernetes/issues/131397",
                            "https://github.com/kubernetes-sigs/aws-ebs-csi-driver/pull/2275",
                            "https://github.com/awslabs/data-on-eks/pull/1106")),
            new Limit("azure-attached-4tib", List.of("disk.csi.azure.com"), Effect.WARNED_ACROSS_SIZE,
                    List.of("cannot be resized beyond 4095 GiB when attached"),
                    "Azure grows an attached disk across 4 TiB (4095 GiB) only for Premium SSD v2 and Ultra Disk: stop the pod"
                            + " that mounts the claim (scale the StatefulSet down) while it grows, or grow to at most 4095Gi now"
                            + " and across later with the pod stopped",
                    List.of("https://github.com/MicrosoftDocs/azure-docs/issues/89430",
                            "https://github.com/kubernetes-sigs/azuredisk-csi-driver/issues/3072")),
            new Limit("longhorn-old-engine", List.of("driver.longhorn.io"), Effect.ENDS_THE_WAIT,
                    List.of("cannot do online expansion for the old engine"),
                    "the volume runs an engine image too old to expand online: upgrade the volume's engine image (Longhorn UI,"
                            + " Upgrade Engine), or restart the pod so that the volume expands detached",
                    List.of("https://github.com/longhorn/longhorn/issues/5324", "https://github.com/longhorn/longhorn-manager/pull/1641")),
            new Limit("gke-hyperdisk-iops", List.of("pd.csi.storage.gke.io"), Effect.ENDS_THE_WAIT,
                    List.of("Requested provisioned IOPS cannot be smaller than"),
                    "this PD CSI driver resizes a Hyperdisk without raising its provisioned IOPS to the new size's minimum:"
                            + " upgrade the driver to a release with the fix (gcp-compute-persistent-disk-csi-driver#2054)",
                    List.of("https://github.com/kubernetes-sigs/gcp-compute-persistent-disk-csi-driver/issues/1816",
                            "https://github.com/kubernetes-sigs/gcp-compute-persistent-disk-csi-driver/pull/2054")),
            new Limit("hostpath-no-resizer", List.of("rancher.io/local-path", "openebs.io/local"), Effect.NO_RESIZER, List.of(),
                    "these provisioners make directories on a node and ship no resizer, so a raised request is never met:"
                            + " keep the size, or grow by copy: `apply --copy` copies each claim to a bigger volume (of the same"
                            + " class, or --copy-class)",
                    List.of("https://github.com/rancher/local-path-provisioner/issues/190",
                            "https://github.com/openebs/dynamic-localpv-provisioner/issues/205")),
            new Limit("external-expanding", List.of("*"), Effect.NOT_A_FAILURE,
                    List.of("waiting for an external controller to expand this PVC",
                            "didn't find a plugin capable of expanding the volume"),
                    "ExternalExpanding is kube-controller-manager handing the claim to the CSI driver's external-resizer, not a"
                            + " failure",
                    List.of("https://github.com/kubernetes/kubernetes/issues/85253", "https://github.com/kubernetes/kubernetes/pull/115345")),
            new Limit("read-only-mount", List.of("*"), Effect.NOT_A_FAILURE, List.of("requested read-only file system"),
                    "FileSystemResizeFailed on a read-only mount is the kubelet (v1.24 among others) declining to grow a file"
                            + " system it mounts read-only, not a failure of this run",
                    List.of("https://github.com/kubernetes/kubernetes/pull/122508",
                            "https://github.com/kubernetes-csi/csi-driver-smb/issues/723")));

    private static Optional<Limit> row(String provisioner, Effect effect) {
        return ROWS.stream().filter(l -> l.effect() == effect && l.serves(provisioner)).findFirst();
    }

    /**
     * Why a class can never grow its claims ("" when the table knows no reason): a Ceph CSI class without its
     * expand secret, naming the parameter.
     */
    public static String refusal(String className, String provisioner, JsonNode parameters) {
        Optional<Limit> l = row(provisioner, Effect.REFUSED_WITHOUT_PARAMETER);
        if (l.isEmpty() || !parameters.path(CEPH_EXPAND_SECRET).asText("").isEmpty()) {
            return "";
        }
        return "StorageClass \"" + className + "\" (provisioner " + provisioner + ") lacks parameter " + CEPH_EXPAND_SECRET + ": "
                + l.get().advice();
    }

    /**
     * What to know before growing one claim from {@code from} to {@code to} in a class ("" when nothing): an
     * Azure disk that would cross 4095 GiB, unless its SKU grows attached.
     */
    public static String warning(String claim, String provisioner, JsonNode parameters, Quantity from, Quantity to) {
        Optional<Limit> l = row(provisioner, Effect.WARNED_ACROSS_SIZE);
        if (l.isEmpty() || from == null || to == null) {
            return "";
        }
        String sku = parameters.path("skuName").asText(parameters.path("skuname").asText(parameters.path("storageaccounttype").asText("")));
        if (sku.startsWith("PremiumV2") || sku.startsWith("UltraSSD")) {
            return "";
        }
        if (from.value().compareTo(AZURE_ATTACHED_LIMIT) > 0 || to.value().compareTo(AZURE_ATTACHED_LIMIT) <= 0) {
            return "";
        }
        return "claim \"" + claim + "\" grows from " + from + " to " + to + ", across 4095Gi, while its disk is attached, which Azure"
                + " refuses (\"Disks cannot be resized beyond 4095 GiB when attached\"): " + l.get().advice();
    }

    /** The remedy for a provisioner that has no resizer at all, if the table knows it. */
    public static Optional<String> withoutResizer(String provisioner) {
        return row(provisioner, Effect.NO_RESIZER).map(Limit::advice);
    }

    /** The row whose failure text {@code message} carries, for this driver, when it ends the wait at once. */
    public static Optional<Limit> failure(String provisioner, String message) {
        return ROWS.stream().filter(l -> l.effect() == Effect.ENDS_THE_WAIT || l.effect() == Effect.REFUSED_WITHOUT_PARAMETER)
                .filter(l -> l.serves(provisioner) && l.says(message)).findFirst();
    }

    /** A word to add to a resizer's or kubelet's message that is no failure ("" for any other). */
    public static String aside(String message) {
        return ROWS.stream().filter(l -> l.effect() == Effect.NOT_A_FAILURE && l.says(message)).findFirst()
                .map(l -> " (" + l.advice() + ")").orElse("");
    }
}
