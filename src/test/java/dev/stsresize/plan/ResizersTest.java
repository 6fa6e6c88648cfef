package dev.stsresize.plan;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Whether anything in the cluster grows a class's volumes, from the CSIDrivers listed (or not readable). */
class ResizersTest {
    private static final Resizers LISTED = Resizers.of(List.of(driver("ebs.csi.aws.com"), driver("rbd.csi.ceph.com"),
            (ObjectNode) Trees.parse("{\"metadata\": {}}")));

    private static ObjectNode driver(String name) {
        return (ObjectNode) Trees.parse("{\"metadata\": {\"name\": \"" + name + "\"}}");
    }

    private static String absent(Resizers resizers, String provisioner) {
        Resizers.Answer a = resizers.check("fast", provisioner);
        assertThat(a).as(provisioner).isInstanceOf(Resizers.Answer.Absent.class);
        return ((Resizers.Answer.Absent) a).why();
    }

    private static String unchecked(Resizers resizers, String provisioner) {
        Resizers.Answer a = resizers.check("fast", provisioner);
        assertThat(a).as(provisioner).isInstanceOf(Resizers.Answer.Unchecked.class);
        return ((Resizers.Answer.Unchecked) a).warning();
    }

    @Test
    void whetherTheDriversWereReadIsKept() {
        assertThat(LISTED.known()).isTrue();
        assertThat(Resizers.of(List.of()).known()).isTrue();
        assertThat(Resizers.unknown().known()).isFalse();
    }

    @Test
    void aListedDriverAndTheInTreeNameMigratedToItHaveAResizer() {
        assertThat(LISTED.check("gp3", "ebs.csi.aws.com")).isEqualTo(new Resizers.Answer.Present());
        assertThat(LISTED.check("gp2", "kubernetes.io/aws-ebs")).isEqualTo(new Resizers.Answer.Present());
        assertThat(LISTED.check("default", "")).as("no provisioner named: nothing to say").isEqualTo(new Resizers.Answer.Present());
        assertThat(LISTED.check("default", null)).isEqualTo(new Resizers.Answer.Present());
    }

    @Test
    void aDriverNotListedHasNoResizerNamingTheMigrationWhereThereIsOne() {
        assertThat(absent(LISTED, "pd.csi.storage.gke.io")).startsWith("StorageClass \"fast\" has provisioner pd.csi.storage.gke.io"
                + " but no CSIDriver \"pd.csi.storage.gke.io\" exists in the cluster");
        assertThat(absent(LISTED, "kubernetes.io/gce-pd")).contains("kubernetes.io/gce-pd (CSI migration hands in-tree"
                + " kubernetes.io/gce-pd to it) but no CSIDriver \"pd.csi.storage.gke.io\"");
        assertThat(absent(Resizers.unknown(), Resizers.NO_PROVISIONER)).contains("whose volumes are made by hand",
                "set allowVolumeExpansion: false on \"fast\"");
        assertThat(absent(Resizers.unknown(), "rancher.io/local-path")).contains("with no resizer", "grow by copy");
    }

    @Test
    void whatCannotBeCheckedIsAWarning() {
        assertThat(unchecked(LISTED, "kubernetes.io/rbd")).contains("in-tree provisioner kubernetes.io/rbd, which has no CSI migration");
        assertThat(unchecked(Resizers.unknown(), "ebs.csi.aws.com")).isEqualTo("the CSIDrivers could not be read, so whether CSI"
                + " driver ebs.csi.aws.com of StorageClass \"fast\" is installed with a resizer is unchecked: if it is not, the"
                + " claims will never grow (kubectl get csidriver ebs.csi.aws.com)");
        assertThat(unchecked(Resizers.unknown(), "kubernetes.io/aws-ebs")).contains("CSI driver ebs.csi.aws.com (CSI migration hands"
                + " in-tree kubernetes.io/aws-ebs to it)");
        assertThat(unchecked(LISTED, "kubernetes.io/portworx-volume")).contains("no CSIDriver pxd.portworx.com exists",
                "CSIMigrationPortworx off");
    }
}
