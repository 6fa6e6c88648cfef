package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.plan.DriverLimits;
import dev.stsresize.plan.Quantity;
import dev.stsresize.plan.Resizers;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One test per row of {@link DriverLimits}: each goes red when its row is removed from the table (the driver
 * then gets the behaviour of a driver the table does not know), and a driver not in the table is met as before.
 */
class DriverLimitsTest {
    @TempDir Path home;

    private static ObjectNode params(String yaml) {
        return Harness.yaml(yaml);
    }

    @Test
    void ceph_class_without_its_expand_secret_is_refused_naming_the_parameter() {
        assertThat(DriverLimits.refusal("ceph-block", "rook-ceph.rbd.csi.ceph.com", params("{pool: replicapool}")))
                .contains("lacks parameter csi.storage.k8s.io/controller-expand-secret-name", "https://github.com/ceph/ceph-csi/issues/783");
        assertThat(DriverLimits.refusal("cephfs", "cephfs.csi.ceph.com", params("{fsName: fs}"))).isNotEmpty();
        assertThat(DriverLimits.refusal("ceph-block", "rook-ceph.rbd.csi.ceph.com",
                params("{csi.storage.k8s.io/controller-expand-secret-name: rook-csi-rbd-provisioner}"))).isEmpty();
        assertThat(DriverLimits.refusal("gp3", "ebs.csi.aws.com", params("{type: gp3}"))).as("not in the row").isEmpty();
    }

    @Test
    void ebs_modification_rate_ends_the_wait_at_its_first_failure_naming_revert() {
        String text = "rpc error: code = Internal desc = Could not resize volume \"vol-0157\": api error VolumeModificationRateExceeded:"
                + " You've reached the maximum modification rate per volume limit. Wait at least 6 hours between modifications per EBS volume.";
        List<ObjectNode> objects = Demo.clusterWith("StorageClass", "fast-online", sc -> ((ObjectNode) sc.path("metadata")
                .path("annotations")).put("sim.stsresize.dev/resizer", "failing").put("sim.stsresize.dev/resizer-error", text));
        try (Harness h = Harness.start(home, objects)) {
            StatefulSetResult r = WaitsThatSpeakTest.converge(h, WaitsThatSpeakTest.converger(h, new Heard()), Demo.declared("postgres"),
                    Harness.options());
            assertThat(r.reason()).as(r.detail()).isEqualTo("resize-failed");
            assertThat(r.detail()).as("ended at the first failure, with the row's remedy, not after " + ResizeSignals.FAILURES_THAT_END)
                    .contains("failed to expand claim data-postgres-0", "VolumeModificationRateExceeded", "Wait at least 6 hours",
                            "known limit of ebs.csi.aws.com", "four times in a rolling 24 hours", "kubectl stsresize revert shop/postgres")
                    .doesNotContain("times to expand");
        }
    }

    @Test
    void azure_disk_growing_across_4095gi_while_attached_is_warned_before_writing() {
        ObjectNode standard = params("{skuName: Premium_LRS}");
        assertThat(DriverLimits.warning("data-db-0", "disk.csi.azure.com", standard, Quantity.parse("4Ti"), Quantity.parse("5Ti")))
                .as("4Ti is 4096Gi: above the limit already").isEmpty();
        assertThat(DriverLimits.warning("data-db-0", "disk.csi.azure.com", standard, Quantity.parse("2Ti"), Quantity.parse("5Ti")))
                .contains("across 4095Gi", "Disks cannot be resized beyond 4095 GiB when attached", "scale the StatefulSet down");
        assertThat(DriverLimits.warning("data-db-0", "disk.csi.azure.com", standard, Quantity.parse("2Ti"), Quantity.parse("4095Gi")))
                .isEmpty();
        assertThat(DriverLimits.warning("data-db-0", "disk.csi.azure.com", params("{skuName: PremiumV2_LRS}"), Quantity.parse("2Ti"),
                Quantity.parse("5Ti"))).as("Premium SSD v2 grows attached").isEmpty();
        assertThat(DriverLimits.warning("data-db-0", "ebs.csi.aws.com", standard, Quantity.parse("2Ti"), Quantity.parse("5Ti"))).isEmpty();
    }

    @Test
    void longhorn_old_engine_ends_the_wait_naming_the_engine_upgrade() {
        assertThat(DriverLimits.failure("driver.longhorn.io", "rpc error: cannot do online expansion for the old engine pvc-f21b-e-6b"
                + " with cli API version 6")).hasValueSatisfying(l -> assertThat(l.advice()).contains("upgrade the volume's engine image"));
        assertThat(DriverLimits.failure("ebs.csi.aws.com", "cannot do online expansion for the old engine")).as("another driver").isEmpty();
    }

    @Test
    void gke_hyperdisk_iops_ends_the_wait_naming_the_driver_upgrade() {
        assertThat(DriverLimits.failure("pd.csi.storage.gke.io", "googleapi: Error 400: Requested provisioned IOPS cannot be smaller"
                + " than 3000., badRequest")).hasValueSatisfying(l -> assertThat(l.advice()).contains("upgrade the driver"));
    }

    @Test
    void local_path_and_openebs_hostpath_have_no_resizer_and_the_refusal_names_the_copy_migration() {
        for (String provisioner : List.of("rancher.io/local-path", "openebs.io/local")) {
            Resizers.Answer a = Resizers.unknown().check("local", provisioner);
            assertThat(a).as(provisioner + ": refused even where the CSIDrivers cannot be read").isInstanceOf(Resizers.Answer.Absent.class);
            assertThat(((Resizers.Answer.Absent) a).why()).contains("grow by copy: `apply --copy`");
        }
    }

    @Test
    void external_expanding_is_said_to_be_the_hand_over_not_a_failure() {
        assertThat(DriverLimits.aside("waiting for an external controller to expand this PVC"))
                .contains("handing the claim to the CSI driver's external-resizer, not a failure");
        assertThat(DriverLimits.failure("ebs.csi.aws.com", "waiting for an external controller to expand this PVC")).isEmpty();
    }

    @Test
    void a_read_only_mount_s_file_system_resize_failure_is_not_a_failure_of_the_run() {
        assertThat(DriverLimits.aside("MountVolume.NodeExpandVolume failed for volume \"pv0003\" requested read-only file system"))
                .contains("not a failure of this run");
        ObjectNode claim = Harness.yaml("""
                metadata: {name: data-db-0, uid: u-1}
                spec: {resources: {requests: {storage: 20Gi}}}
                status: {capacity: {storage: 10Gi}}
                """);
        ObjectNode event = Harness.yaml("""
                {reason: VolumeResizeFailed, message: "MountVolume.NodeExpandVolume failed for volume \\"pv\\" requested read-only file system",
                 involvedObject: {uid: u-1}}
                """);
        assertThat(PreFlight.failure(claim, List.of(event))).as("the plan does not call it a failed resize").isEmpty();
    }

    @Test
    void a_driver_not_in_the_table_gets_today_s_behaviour() {
        assertThat(DriverLimits.failure("example.csi.vendor.io", "VolumeModificationRateExceeded")).isEmpty();
        assertThat(DriverLimits.refusal("x", "example.csi.vendor.io", params("{}"))).isEmpty();
        assertThat(DriverLimits.warning("c", "example.csi.vendor.io", params("{}"), Quantity.parse("1Ti"), Quantity.parse("9Ti"))).isEmpty();
        assertThat(DriverLimits.withoutResizer("example.csi.vendor.io")).isEmpty();
    }
}
