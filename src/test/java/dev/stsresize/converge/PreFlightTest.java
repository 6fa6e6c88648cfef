package dev.stsresize.converge;

import static dev.stsresize.converge.DecisionValues.claim;
import static dev.stsresize.converge.DecisionValues.plan;
import static dev.stsresize.converge.DecisionValues.pvc;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.plan.ClaimState;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Finding;
import dev.stsresize.plan.Plan;
import dev.stsresize.plan.Reason;
import dev.stsresize.plan.Refusal;
import dev.stsresize.plan.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A claim whose last resize failed is never called matching nor at its target: a claim the run would leave alone below
 * the declared size blocks the run, naming the failure and the fix (revert where this plugin recorded the size before);
 * one the run grows, or one above a template that already matches, is said as a warning or in the detail.
 */
class PreFlightTest {
    private static final String INFEASIBLE = "'allocatedResourceStatuses':{'storage':'ControllerResizeInfeasible'},"
            + "'conditions':[{'type':'ControllerResizeError','status':'True','message':'disk quota exceeded'}]";
    private static final String NODE_ERROR = "'conditions':[{'type':'NodeResizeError','status':'True','message':'resize2fs failed'}]";
    private static final String SIZE_BEFORE = "'" + SizeBefore.ANNOTATION + "':'10Gi'";

    private final MemoryCluster cluster = new MemoryCluster();

    private List<Decision> read(List<ObjectNode> claims, Decision... decisions) {
        return PreFlight.lastResizeFailed(List.of(decisions), claims, cluster);
    }

    private Decision readOne(Decision d, ObjectNode... claims) {
        return read(List.of(claims), d).get(0);
    }

    private static ClaimState lagging(String name) {
        return claim(name, "20Gi", "10Gi", "20Gi", false);
    }

    @Test
    void aClaimLeftBelowItsDeclaredSizeByAFailedResizeBlocksTheRunNamingTheFailureAndTheFix() {
        Decision d = plan(Verdict.GROW_CLAIMS, lagging("data-db-0"), claim("data-db-1", "10Gi", "10Gi", "20Gi", true));

        Decision out = readOne(d, pvc("data-db-0", INFEASIBLE, ""), pvc("data-db-1", "", ""));

        assertThat(out).isInstanceOfSatisfying(Refusal.class, r -> {
            assertThat(r.verdict()).isEqualTo(Verdict.BLOCKED);
            assertThat(r.reason()).isEqualTo(Reason.RESIZE_FAILED);
            assertThat(r.findings()).extracting(Finding::message).containsExactly("claim \"data-db-0\" requests 20Gi but its volume is"
                    + " 10Gi of the declared 20Gi: its resize failed (claim \"data-db-0\": ControllerResizeInfeasible: disk quota exceeded)."
                    + " Nothing is written while a volume lacks the size its claim requests (re-creating the StatefulSet would declare a"
                    + " size its volumes do not have): fix what the failure names (kubectl describe pvc data-db-0 -n shop) and run again"
                    + " once the volumes have grown");
            assertThat(r.warnings()).containsExactly(DecisionValues.WARNING);
        });
        assertThat(out.claims()).extracting(ClaimState::name, ClaimState::resizeFailed)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("data-db-0", true), org.assertj.core.groups.Tuple.tuple("data-db-1", false));
        assertThat(out.claimsToGrow()).as("a blocked run grows nothing").isEmpty();
    }

    @Test
    void claimsBlockedTogetherAreNamedTogetherAndRevertIsOfferedWhereTheSizeBeforeWasRecorded() {
        Decision d = plan(Verdict.GROW_CLAIMS, lagging("data-db-0"), lagging("data-db-1"));

        Decision out = readOne(d, pvc("data-db-0", INFEASIBLE, SIZE_BEFORE), pvc("data-db-1", NODE_ERROR, ""));

        assertThat(((Refusal) out).findings()).extracting(Finding::message).singleElement().asString()
                .startsWith("claims \"data-db-0\", \"data-db-1\" request 20Gi but their volumes are 10Gi of the declared 20Gi: their"
                        + " resize failed (claim \"data-db-0\": ControllerResizeInfeasible: disk quota exceeded). Nothing is written")
                .endsWith("`kubectl stsresize revert shop/db` gives the requests back, or fix what the failure names (kubectl describe"
                        + " pvc data-db-0 -n shop) and run again once the volumes have grown");
        assertThat(out.claims()).allMatch(ClaimState::resizeFailed);
    }

    @Test
    void theBlockSaysTheSizesOfTheFirstBlockedClaimNotOfTheFirstClaim() {
        Decision d = plan(Verdict.GROW_CLAIMS, claim("data-db-0", "10Gi", "10Gi", "20Gi", true), lagging("data-db-1"));

        Decision out = readOne(d, pvc("data-db-0", "", ""), pvc("data-db-1", NODE_ERROR, ""));

        assertThat(((Refusal) out).findings().get(0).message()).startsWith("claim \"data-db-1\" requests 20Gi but its volume is 10Gi of the"
                + " declared 20Gi: its resize failed (claim \"data-db-1\": resize2fs failed)");
    }

    @Test
    void aRefusalKeepsItsOwnFindingsBesideTheFailedResize() {
        Refusal before = new Refusal("shop", "db", List.of(new Finding(Reason.CLAIM_UNBOUND, "claim data-db-1 is Pending")), List.of(),
                List.of(lagging("data-db-0")), List.of(DecisionValues.WARNING), true);

        Decision out = readOne(before, pvc("data-db-0", INFEASIBLE, ""));

        assertThat(((Refusal) out).findings()).extracting(Finding::reason).containsExactly(Reason.CLAIM_UNBOUND, Reason.RESIZE_FAILED);
        assertThat(((Refusal) out).copyPossible()).as("the copy's fact kept").isTrue();
        assertThat(out.warnings()).containsExactly(DecisionValues.WARNING);
        assertThat(out.claims()).singleElement().matches(ClaimState::resizeFailed);
    }

    @Test
    void aStatefulSetThatIsAbsentIsNotBlockedByItsClaims() {
        Decision absent = plan(Verdict.ABSENT, lagging("data-db-0"));

        assertThat(readOne(absent, pvc("data-db-0", INFEASIBLE, ""))).isEqualTo(absent);
    }

    @Test
    void aClaimTheRunGrowsIsWarnedOfItsFailedResizeAndTheRunStillGrowsIt() {
        Decision d = plan(Verdict.GROW_CLAIMS, claim("data-db-0", "15Gi", "10Gi", "20Gi", true), claim("data-db-1", "15Gi", "10Gi", "20Gi", true));

        Decision out = readOne(d, pvc("data-db-0", NODE_ERROR, ""), pvc("data-db-1", INFEASIBLE, ""));

        assertThat(out).isInstanceOf(Plan.class);
        assertThat(out.verdict()).isEqualTo(Verdict.GROW_CLAIMS);
        assertThat(out.claimsToGrow()).hasSize(2).noneMatch(ClaimState::resizeFailed);
        assertThat(out.detail()).isEqualTo(DecisionValues.DETAIL);
        assertThat(out.warnings()).containsExactly(DecisionValues.WARNING, "the last resize of claim \"data-db-0\": resize2fs failed;"
                + " claim \"data-db-1\": ControllerResizeInfeasible: disk quota exceeded. Its request stays above its capacity and the"
                + " resizer keeps retrying: fix what the failure names (kubectl describe pvc) and run again");
    }

    @Test
    void aStatefulSetUpToDateWhoseClaimFailedToGrowBeyondItSaysSoInsteadOfMatch() {
        Decision d = plan(Verdict.UP_TO_DATE, claim("data-db-0", "30Gi", "20Gi", "20Gi", false));

        Decision out = readOne(d, pvc("data-db-0", INFEASIBLE, SIZE_BEFORE));

        assertThat(out.verdict()).isEqualTo(Verdict.UP_TO_DATE);
        assertThat(out.detail()).isEqualTo("nothing to write, but the last resize of claim \"data-db-0\": ControllerResizeInfeasible: disk"
                + " quota exceeded. Its request stays above its capacity and the resizer keeps retrying: `kubectl stsresize revert shop/db`"
                + " gives the requests back, or fix what the failure names (kubectl describe pvc) and run again");
        assertThat(out.warnings()).containsExactly(DecisionValues.WARNING);
    }

    @Test
    void aClaimWithItsRoomOrWithoutAFailureOrUnreadIsLeftAsDecided() {
        Decision d = plan(Verdict.GROW_CLAIMS, claim("data-db-0", "20Gi", "20Gi", "20Gi", false), lagging("data-db-1"), lagging("data-db-2"),
                claim("data-db-3", "10Gi", "", "20Gi", true), claim("data-db-4", "", "10Gi", "20Gi", true));

        // data-db-0 has its room, data-db-1 is merely under way, data-db-2 was not read, 3 and 4 have no capacity or no request
        Decision out = readOne(d, pvc("data-db-0", INFEASIBLE, ""), pvc("data-db-1", "'allocatedResourceStatuses':{'storage':"
                + "'ControllerResizeInProgress'}", ""), pvc("data-db-3", INFEASIBLE, ""), pvc("data-db-4", INFEASIBLE, ""));

        assertThat(out).isEqualTo(d);
    }

    @Test
    void anInfeasibleAllocationIsAFailureEvenWithoutTheResizersCondition() {
        assertThat(PreFlight.failure(pvc("data-db-0", "'allocatedResourceStatuses':{'storage':'NodeResizeInfeasible'}", ""), List.of()))
                .isEqualTo("NodeResizeInfeasible");
        assertThat(PreFlight.failure(pvc("data-db-0", "'allocatedResourceStatuses':{'storage':'ControllerResizeInProgress'}", ""), List.of()))
                .isEmpty();
    }

    @Test
    void theClaimsEventsAreReadOnlyInNamespacesWhereAClaimLacksItsRoom() {
        Decision full = plan("web", Verdict.GROW_CLAIMS, claim("data-db-0", "10Gi", "10Gi", "20Gi", true));
        Decision lacking = plan(Verdict.GROW_CLAIMS, lagging("data-db-0"));

        read(List.of(), full);
        assertThat(cluster.reads()).noneMatch(r -> r.startsWith("listClaimEvents"));

        read(List.of(), full, lacking);
        assertThat(cluster.reads()).filteredOn(r -> r.startsWith("listClaimEvents")).containsExactly("listClaimEvents shop");
    }
}
