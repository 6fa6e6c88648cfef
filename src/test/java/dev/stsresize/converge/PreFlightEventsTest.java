package dev.stsresize.converge;

import static dev.stsresize.converge.DecisionValues.claim;
import static dev.stsresize.converge.DecisionValues.plan;
import static dev.stsresize.converge.DecisionValues.pvc;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Reason;
import dev.stsresize.plan.Refusal;
import dev.stsresize.plan.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Where a claim's own status says nothing, the resizer's Events on it do: the last {@code VolumeResizeFailed} about that
 * claim (by its UID) is its failure, unless its words are a known non-failure. Events are advice: where they cannot be
 * read, the decision stands on the claims' status.
 */
class PreFlightEventsTest {
    private final MemoryCluster cluster = new MemoryCluster();
    private int events;

    private void event(String claim, String uid, String reason, String message) {
        cluster.put("{'kind':'Event','metadata':{'namespace':'shop','name':'e" + (++events) + "'},'reason':'" + reason + "','message':'"
                + message + "','involvedObject':{'kind':'PersistentVolumeClaim','name':'" + claim + "'" + (uid == null ? "" : ",'uid':'"
                + uid + "'") + "}}");
    }

    /** A decision where data-db-0 requests its target (20Gi) with a volume of 10Gi, its status saying nothing more. */
    private Decision blockedOrNot() {
        Decision d = plan(Verdict.GROW_CLAIMS, claim("data-db-0", "20Gi", "10Gi", "20Gi", false));
        return PreFlight.lastResizeFailed(List.of(d), List.of(pvc("data-db-0", "", "")), cluster).get(0);
    }

    private static String failureNamed(Decision d) {
        return ((Refusal) d).findings().get(0).message();
    }

    @Test
    void theLastResizeFailedEventAboutTheClaimIsItsFailure() {
        event("data-db-0", "uid-data-db-0", "VolumeResizeFailed", "rpc error: first try");
        event("data-db-0", "uid-data-db-0", "VolumeResizeFailed", "rpc error: out of space");
        event("data-db-0", "uid-data-db-0", "ExternalExpanding", "waiting for an external controller to expand this PVC");
        event("data-db-0", "uid-data-db-0", "Resizing", "External resizer is resizing volume");

        Decision d = blockedOrNot();

        assertThat(((Refusal) d).reason()).isEqualTo(Reason.RESIZE_FAILED);
        assertThat(failureNamed(d)).contains("(claim \"data-db-0\": VolumeResizeFailed: rpc error: out of space)");
    }

    @Test
    void anEventAboutAnEarlierClaimOfTheSameNameIsNotThisClaimsFailure() {
        event("data-db-0", "uid-of-a-deleted-claim", "VolumeResizeFailed", "rpc error: out of space");
        event("data-db-1", "uid-data-db-1", "VolumeResizeFailed", "rpc error: another claim");

        assertThat(blockedOrNot().verdict()).isEqualTo(Verdict.GROW_CLAIMS);
    }

    @Test
    void anEventThatNamesNoUidCountsForTheClaimOfItsName() {
        event("data-db-0", null, "VolumeResizeFailed", "rpc error: out of space");

        assertThat(failureNamed(blockedOrNot())).contains("VolumeResizeFailed: rpc error: out of space");
    }

    @Test
    void aResizeFailedEventWhoseWordsAreNoFailureIsNotOne() {
        event("data-db-0", "uid-data-db-0", "VolumeResizeFailed", "waiting for an external controller to expand this PVC");

        assertThat(blockedOrNot().verdict()).isEqualTo(Verdict.GROW_CLAIMS);
    }

    @Test
    void eventsThatCannotBeReadLeaveTheDecisionToTheClaimsStatus() {
        event("data-db-0", "uid-data-db-0", "VolumeResizeFailed", "rpc error: out of space");
        cluster.failAlways("listClaimEvents", MemoryCluster.error(403, "Forbidden", "events is forbidden"));

        assertThat(blockedOrNot().verdict()).isEqualTo(Verdict.GROW_CLAIMS);
        Decision d = plan(Verdict.GROW_CLAIMS, claim("data-db-0", "20Gi", "10Gi", "20Gi", false));
        Decision byStatus = PreFlight.lastResizeFailed(List.of(d), List.of(pvc("data-db-0", "'conditions':[{'type':'ControllerResizeError',"
                + "'status':'True','message':'quota'}]", "")), cluster).get(0);
        assertThat(failureNamed(byStatus)).contains("(claim \"data-db-0\": quota)");
    }
}
