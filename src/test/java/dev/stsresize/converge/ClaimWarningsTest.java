package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.plan.Quantity;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the end of a run says of a claim still unfinished, read from the claim itself: a volume below the target (with the
 * commands to follow it), a file system that waits (a restart named only where the kubelet said it needs one, and only
 * for a pod that mounts the claim), nothing for a claim that grew.
 */
class ClaimWarningsTest {
    private static final Quantity TARGET = Quantity.parse("20Gi");
    private final MemoryCluster cluster = new MemoryCluster();

    /** Claim shop/data-db-1 with the status members given. */
    private static ObjectNode claim(String status) {
        return MemoryCluster.json("{'kind':'PersistentVolumeClaim','metadata':{'namespace':'shop','name':'data-db-1'},"
                + "'spec':{'resources':{'requests':{'storage':'20Gi'}}},'status':{" + status + "}}");
    }

    private static final String FS_PENDING = "'capacity':{'storage':'10Gi'},'conditions':[{'type':'FileSystemResizePending','status':'True'}";

    private void pod(String claimName) {
        cluster.put("{'kind':'Pod','metadata':{'namespace':'shop','name':'db-1'},'spec':{'volumes':[{'name':'data',"
                + "'persistentVolumeClaim':{'claimName':'" + claimName + "'}}]}}");
    }

    private String warning(ObjectNode claim) {
        return ClaimWarnings.of(cluster, "shop", "db", claim, TARGET).orElse("(none)");
    }

    @Test
    void aVolumeBelowTheTargetIsSaidWithItsCapacityAndHowToFollowIt() {
        assertThat(warning(claim("'capacity':{'storage':'10Gi'}"))).isEqualTo("claim data-db-1 has not grown yet: capacity 10Gi, request"
                + " 20Gi; the volume's resizer has not finished: follow it with `kubectl get pvc data-db-1 -n shop -w` and `kubectl"
                + " describe pvc data-db-1 -n shop` (no resizer in the cluster: its events say so, and the volume never grows)");
    }

    @Test
    void anInfeasibleResizeAndAnUnknownCapacityAreSaid() {
        assertThat(warning(claim("'allocatedResourceStatuses':{'storage':'ControllerResizeInfeasible'}")))
                .startsWith("claim data-db-1 has not grown yet: capacity unknown, request 20Gi (ControllerResizeInfeasible); ");
    }

    @Test
    void aClaimAtItsTargetOrNotYetRequestingItHasNoWarning() {
        assertThat(ClaimWarnings.of(cluster, "shop", "db", claim("'capacity':{'storage':'20Gi'}"), TARGET)).isEmpty();
        assertThat(ClaimWarnings.of(cluster, "shop", "db", claim("'capacity':{'storage':'10Gi'}"), Quantity.parse("30Gi"))).isEmpty();
    }

    @Test
    void onlyAVolumeWaitingOrRefusedIsBelowTheTarget() {
        assertThat(ClaimWarnings.belowTarget(claim("'capacity':{'storage':'10Gi'}"), TARGET)).isTrue();
        assertThat(ClaimWarnings.belowTarget(claim("'allocatedResourceStatuses':{'storage':'NodeResizeInfeasible'}"), TARGET)).isTrue();
        assertThat(ClaimWarnings.belowTarget(claim("'capacity':{'storage':'20Gi'}"), TARGET)).isFalse();
        assertThat(ClaimWarnings.belowTarget(claim(FS_PENDING + "]"), TARGET)).as("the volume grew").isFalse();
        assertThat(ClaimWarnings.belowTarget(claim("'capacity':{'storage':'10Gi'}"), Quantity.parse("30Gi"))).as("not requested").isFalse();
    }

    @Test
    void aFileSystemNoPodMountsGrowsWhenOneDoes() {
        pod("data-db-9");
        assertThat(warning(claim(FS_PENDING + "]"))).isEqualTo("claim data-db-1 waits for a file system resize: no pod mounts it now; its"
                + " file system grows when a pod next mounts it");
    }

    @Test
    void aFileSystemOfAMountedClaimGrowsOnlineAndARestartIsOnlyTheWayOutIfItNeverDoes() {
        pod("data-db-1");
        assertThat(warning(claim(FS_PENDING + "]"))).isEqualTo("claim data-db-1 waits for a file system resize on pod db-1: the kubelet"
                + " had not grown it when the run stopped following it; it grows it while the pod runs (online expansion). If `kubectl"
                + " get pvc data-db-1 -n shop -w` still shows FileSystemResizePending minutes later, restart the pod (apply"
                + " --restart-pods-for-resize evicts it, respecting PodDisruptionBudgets)");
    }

    @Test
    void aRestartIsNamedWhereTheKubeletSaidItCannotGrowTheFileSystemWhileThePodRuns() {
        pod("data-db-1");
        assertThat(warning(claim(FS_PENDING + ",{'type':'NodeResizeError','status':'True','message':'online expansion unsupported'}]")))
                .isEqualTo("claim data-db-1 waits for a file system resize on pod db-1: the kubelet cannot grow it while the pod runs"
                        + " (online expansion unsupported); restart the pod (apply --restart-pods-for-resize evicts it, respecting"
                        + " PodDisruptionBudgets)");
    }

    @Test
    void claimsWhoseResizeFailedAreSaidOnceReferringToTheFailure() {
        assertThat(ClaimWarnings.failedResize(List.of("data-db-0 (10Gi of 20Gi)")))
                .isEqualTo("claim data-db-0 (10Gi of 20Gi) did not grow: its resize failed, as the failure above says");
        assertThat(ClaimWarnings.failedResize(List.of("data-db-0 (10Gi of 20Gi)", "data-db-1 (10Gi of 20Gi)")))
                .isEqualTo("claims data-db-0 (10Gi of 20Gi), data-db-1 (10Gi of 20Gi) did not grow: their resize failed, as the failure"
                        + " above says");
    }
}
