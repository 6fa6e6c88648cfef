package dev.stsresize.converge;

import static dev.stsresize.converge.DecisionValues.claimOf;
import static dev.stsresize.converge.DecisionValues.plan;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.DriverLimits;
import dev.stsresize.plan.Finding;
import dev.stsresize.plan.Reason;
import dev.stsresize.plan.Refusal;
import dev.stsresize.plan.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The drivers' known limits, held against each claim a plan grows by its class: a class that can never grow refuses the
 * plan once, naming the class; a size a driver refuses while attached is warned of for that claim.
 */
class PreFlightLimitsTest {
    private static final ObjectNode CEPH = storageClass("ceph", "rbd.csi.ceph.com", "");
    private static final ObjectNode CEPH_WITH_SECRET = storageClass("ceph", "rbd.csi.ceph.com",
            "'" + DriverLimits.CEPH_EXPAND_SECRET + "':'rook-csi-rbd-provisioner'");
    private static final ObjectNode AZURE = storageClass("azure", "disk.csi.azure.com", "'skuName':'Premium_LRS'");

    private static ObjectNode storageClass(String name, String provisioner, String parameters) {
        return MemoryCluster.json("{'kind':'StorageClass','metadata':{'name':'" + name + "'},'provisioner':'" + provisioner
                + "','parameters':{" + parameters + "}}");
    }

    @Test
    void aCephClassWithoutItsExpandSecretRefusesThePlanOnceNamingTheClass() {
        Decision d = plan(Verdict.GROW, claimOf("ceph", "data-db-0", "10Gi", "10Gi", "20Gi", true),
                claimOf("ceph", "data-db-1", "10Gi", "10Gi", "20Gi", true), claimOf("cephfs", "data-db-2", "10Gi", "10Gi", "20Gi", true));

        Decision out = PreFlight.limits(d, List.of(AZURE, CEPH, storageClass("cephfs", "cephfs.csi.ceph.com", "")));

        assertThat(out).isInstanceOfSatisfying(Refusal.class, r -> {
            assertThat(r.verdict()).isEqualTo(Verdict.REFUSED);
            assertThat(r.findings()).extracting(Finding::reason).containsExactly(Reason.NOT_EXPANDABLE, Reason.NOT_EXPANDABLE);
            assertThat(r.findings()).extracting(Finding::message).anySatisfy(m -> assertThat(m).startsWith("StorageClass \"ceph\""
                    + " (provisioner rbd.csi.ceph.com) lacks parameter " + DriverLimits.CEPH_EXPAND_SECRET + ": "))
                    .anySatisfy(m -> assertThat(m).startsWith("StorageClass \"cephfs\" (provisioner cephfs.csi.ceph.com) lacks"));
            assertThat(r.warnings()).containsExactly(DecisionValues.WARNING);
        });
    }

    @Test
    void aCephClassThatNamesItsExpandSecretGrows() {
        Decision d = plan(Verdict.GROW, claimOf("ceph", "data-db-0", "10Gi", "10Gi", "20Gi", true));

        assertThat(PreFlight.limits(d, List.of(CEPH_WITH_SECRET))).isEqualTo(d);
    }

    @Test
    void anAzureDiskGrownAcross4095GiWhileAttachedIsWarnedOfClaimByClaim() {
        Decision d = plan(Verdict.GROW_CLAIMS, claimOf("azure", "data-db-0", "4000Gi", "4000Gi", "5000Gi", true),
                claimOf("azure", "data-db-1", "5000Gi", "5000Gi", "5000Gi", false),
                claimOf("azure", "data-db-2", "4000Gi", "4000Gi", "5000Gi", true));

        Decision out = PreFlight.limits(d, List.of(AZURE));

        assertThat(out.verdict()).isEqualTo(Verdict.GROW_CLAIMS);
        assertThat(out.warnings()).hasSize(3).first().isEqualTo(DecisionValues.WARNING);
        assertThat(out.warnings().get(1)).startsWith("claim \"data-db-0\" grows from 4000Gi to 5000Gi, across 4095Gi, while its disk is"
                + " attached");
        assertThat(out.warnings().get(2)).startsWith("claim \"data-db-2\" grows from 4000Gi to 5000Gi");
    }

    @Test
    void aPlanWithoutWritesOrAClaimOfNoKnownClassIsNotHeldAgainstTheTable() {
        Decision upToDate = plan(Verdict.UP_TO_DATE, claimOf("ceph", "data-db-0", "20Gi", "20Gi", "20Gi", false));
        assertThat(PreFlight.limits(upToDate, List.of(CEPH))).isEqualTo(upToDate);

        Decision unknownClasses = plan(Verdict.GROW, claimOf(null, "data-db-0", "10Gi", "10Gi", "20Gi", true),
                claimOf("gone", "data-db-1", "10Gi", "10Gi", "20Gi", true));
        assertThat(PreFlight.limits(unknownClasses, List.of(CEPH))).isEqualTo(unknownClasses);
    }
}
