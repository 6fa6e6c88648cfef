package dev.stsresize.plan;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The table of drivers' known limits as the decision reads it: which provisioner a row serves, the edges of each
 * check, and the words each answer carries. {@code converge.DriverLimitsTest} runs each row through a run.
 */
class DriverLimitsRowsTest {
    
    private static DriverLimits.Limit row(String id) {
        return DriverLimits.ROWS.stream().filter(l -> l.id().equals(id)).findFirst().orElseThrow();
    }

    private static JsonNode params(String json) {
        return Trees.parse(json);
    }

    private static String azure(String sku, String from, String to) {
        return DriverLimits.warning("data-db-0", "disk.csi.azure.com", params(sku), Quantity.parse(from), Quantity.parse(to));
    }

    @ParameterizedTest(name = "{0} is served by the Ceph row: {1}")
    @CsvSource({"rbd.csi.ceph.com, true", "cephfs.csi.ceph.com, true", "rook-ceph.rbd.csi.ceph.com, true",
        "openshift-storage.cephfs.csi.ceph.com, true", "xrbd.csi.ceph.com, false", "rbd.csi.ceph.com.example, false",
        "ebs.csi.aws.com, false", "'', false"})
    void aRowServesItsDriversAndThoseNamedWithADottedPrefix(String provisioner, boolean served) {
        String refusal = DriverLimits.refusal("ceph-block", provisioner, params("{\"pool\": \"replicapool\"}"));
        assertThat(refusal.isEmpty()).isNotEqualTo(served);
    }

    @Test
    void aRowForAnyDriverServesAProvisionerThatIsNotNamed() {
        DriverLimits.Limit any = row("read-only-mount");
        assertThat(any.serves(null)).isTrue();
        assertThat(any.serves("")).isTrue();
        assertThat(any.serves("example.csi.vendor.io")).isTrue();
        DriverLimits.Limit ebs = row("ebs-modification-rate");
        assertThat(ebs.serves(null)).isFalse();
        assertThat(ebs.serves("")).isFalse();
        assertThat(ebs.says(null)).isFalse();
        assertThat(ebs.says("api error VolumeModificationRateExceeded: wait")).isTrue();
        assertThat(ebs.says("api error RequestLimitExceeded")).isFalse();
    }

    @Test
    void theAdviceIsTheRemedyWithItsDriversAndSources() {
        DriverLimits.Limit row = new DriverLimits.Limit("id", List.of("a.example", "b.example"),
                DriverLimits.Effect.ENDS_THE_WAIT, List.of("boom"), "do this", List.of("https://x/1", "https://x/2"));
        assertThat(row.advice()).isEqualTo("do this (known limit of a.example, b.example: https://x/1, https://x/2)");
    }

    @Test
    void aCephClassIsRefusedNamingTheClassTheProvisionerAndTheParameter() {
        assertThat(DriverLimits.refusal("ceph-block", "rbd.csi.ceph.com", params("{\"pool\": \"replicapool\"}")))
                .isEqualTo("StorageClass \"ceph-block\" (provisioner rbd.csi.ceph.com) lacks parameter "
                        + DriverLimits.CEPH_EXPAND_SECRET + ": " + row("ceph-expand-secret").advice());
        assertThat(DriverLimits.refusal("ceph-block", "rbd.csi.ceph.com", params("{\"" + DriverLimits.CEPH_EXPAND_SECRET + "\": \"\"}")))
                .as("an empty secret name is no secret").isNotEmpty();
        assertThat(DriverLimits.refusal("ceph-block", "rbd.csi.ceph.com", params("{\"" + DriverLimits.CEPH_EXPAND_SECRET
                + "\": \"rook-csi-rbd-provisioner\"}"))).isEmpty();
    }

    @ParameterizedTest(name = "{0} → {1}: warned {2}")
    @CsvSource({"2Ti, 4095Gi, false", "2Ti, 4096Gi, true", "4095Gi, 4096Gi, true", "4096Gi, 5Ti, false", "4095Gi, 4095Gi, false",
        "1Gi, 4396972769281, true", "4396972769281, 5Ti, false", "1Gi, 4396972769280, false"})
    void azureWarnsOnlyForAGrowthThatCrosses4095Gi(String from, String to, boolean warned) {
        String warning = azure("{\"skuName\": \"Premium_LRS\"}", from, to);
        assertThat(warning.isEmpty()).isNotEqualTo(warned);
        if (warned) {
            assertThat(warning).isEqualTo("claim \"data-db-0\" grows from " + Quantity.parse(from) + " to " + Quantity.parse(to)
                    + ", across 4095Gi, while its disk is attached, which Azure refuses (\"Disks cannot be resized beyond 4095 GiB"
                    + " when attached\"): " + row("azure-attached-4tib").advice());
        }
    }

    @ParameterizedTest(name = "{0}: warned {1}")
    @CsvSource(delimiter = '|', value = {"{\"skuName\": \"PremiumV2_LRS\"}|false", "{\"skuname\": \"UltraSSD_LRS\"}|false",
        "{\"storageaccounttype\": \"PremiumV2_LRS\"}|false", "{\"skuname\": \"StandardSSD_LRS\"}|true",
        "{\"storageaccounttype\": \"Standard_LRS\"}|true", "{}|true", "{\"skuName\": \"Premium_LRS\", \"skuname\": \"UltraSSD_LRS\"}|true"})
    void theSkusThatGrowAttachedAreNotWarnedWhicheverKeyNamesThem(String parameters, boolean warned) {
        assertThat(azure(parameters, "2Ti", "5Ti").isEmpty()).isNotEqualTo(warned);
    }

    @Test
    void aSizeNotKnownIsNotWarned() {
        JsonNode standard = params("{}");
        assertThat(DriverLimits.warning("c", "disk.csi.azure.com", standard, null, Quantity.parse("5Ti"))).isEmpty();
        assertThat(DriverLimits.warning("c", "disk.csi.azure.com", standard, Quantity.parse("2Ti"), null)).isEmpty();
    }

    @Test
    void aProvisionerWithoutAResizerIsToldTheCopy() {
        Optional<String> local = DriverLimits.withoutResizer("rancher.io/local-path");
        assertThat(local).hasValueSatisfying(a -> assertThat(a).startsWith("these provisioners make directories on a node")
                .endsWith("(known limit of rancher.io/local-path, openebs.io/local: https://github.com/rancher/local-path-provisioner/issues/190,"
                        + " https://github.com/openebs/dynamic-localpv-provisioner/issues/205)"));
        assertThat(DriverLimits.withoutResizer("openebs.io/local")).isEqualTo(local);
        assertThat(DriverLimits.withoutResizer("ebs.csi.aws.com")).isEmpty();
        assertThat(DriverLimits.withoutResizer(null)).isEmpty();
    }

    @Test
    void aFailureEndsTheWaitOnlyForItsDriverAndTheCephSecretTextsCountToo() {
        assertThat(DriverLimits.failure("rook-ceph.rbd.csi.ceph.com", "rpc error: provided secret is empty"))
                .hasValueSatisfying(l -> assertThat(l.id()).isEqualTo("ceph-expand-secret"));
        assertThat(DriverLimits.failure("ebs.csi.aws.com", "VolumeModificationRateExceeded"))
                .hasValueSatisfying(l -> assertThat(l.id()).isEqualTo("ebs-modification-rate"));
        assertThat(DriverLimits.failure("ebs.csi.aws.com", "provided secret is empty")).as("another driver's text").isEmpty();
        assertThat(DriverLimits.failure("ebs.csi.aws.com", "requested read-only file system")).as("not a failure").isEmpty();
        assertThat(DriverLimits.failure("rancher.io/local-path", "anything")).as("a row without texts").isEmpty();
        assertThat(DriverLimits.failure("ebs.csi.aws.com", null)).isEmpty();
    }

    @Test
    void anAsideIsTheRowsAdviceInBracketsAndNothingForAFailure() {
        DriverLimits.Limit readOnly = row("read-only-mount");
        assertThat(DriverLimits.aside("NodeExpandVolume: requested read-only file system")).isEqualTo(" (" + readOnly.advice() + ")");
        assertThat(DriverLimits.aside("VolumeModificationRateExceeded")).as("a failure is no aside").isEmpty();
        assertThat(DriverLimits.aside(null)).isEmpty();
    }
}
