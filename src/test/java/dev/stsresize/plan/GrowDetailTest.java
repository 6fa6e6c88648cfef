package dev.stsresize.plan;

import static dev.stsresize.plan.DeciderTest.CLASSES;
import static dev.stsresize.plan.DeciderTest.obj;
import static dev.stsresize.plan.DeciderTest.sts;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A growth's one line names what it does to each claim (grown, left alone at or above the target, waited for while its
 * volume catches up); and what the decision says of each claim for the views: outside the running ordinals, its class
 * expandable, not, or not known.
 */
class GrowDetailTest {
    private static ObjectNode claim(String name, String request, String capacity) {
        return obj("{'metadata':{'name':'" + name + "','namespace':'a'},'spec':{'storageClassName':'fast','resources':{'requests':"
                + "{'storage':'" + request + "'}}},'status':{'phase':'Bound','capacity':{'storage':'" + capacity + "'}}}");
    }

    private static ObjectNode withReplicas(ObjectNode sts, int replicas) {
        ((ObjectNode) sts.path("spec")).put("replicas", replicas);
        return sts;
    }

    @Test
    void eachClaimIsSaidToBeGrownLeftAloneOrWaitedFor() {
        Decision d = Decider.decideOne(withReplicas(sts("a", "db", "2Gi"), 3), withReplicas(sts("a", "db", "1Gi"), 3),
                List.of(claim("data-db-0", "1Gi", "1Gi"), claim("data-db-1", "2Gi", "1Gi"), claim("data-db-2", "2Gi", "2Gi")), CLASSES);
        assertThat(d.verdict()).isEqualTo(Verdict.GROW);
        assertThat(d.detail()).isEqualTo("template \"data\" 1Gi -> 2Gi; 1 claim to grow; 1 claim already at or above the target, left"
                + " alone; 1 claim already requesting the target with its volume still below it, waited for before the re-create;"
                + " then orphan-delete and re-apply the StatefulSet");
    }

    @Test
    void aGrowthOfEveryClaimSaysNothingOfClaimsLeftAlone() {
        Decision d = Decider.decideOne(withReplicas(sts("a", "db", "2Gi"), 2), withReplicas(sts("a", "db", "1Gi"), 2),
                List.of(claim("data-db-0", "1Gi", "1Gi"), claim("data-db-1", "1Gi", "1Gi")), CLASSES);
        assertThat(d.detail()).isEqualTo("template \"data\" 1Gi -> 2Gi; 2 claims to grow; then orphan-delete and re-apply the StatefulSet");
    }

    @Test
    void claimsOutsideTheRunningOrdinalsAreScaledAway() {
        ObjectNode declared = withReplicas(sts("a", "db", "2Gi"), 2);
        ObjectNode live = withReplicas(sts("a", "db", "1Gi"), 2);
        ((ObjectNode) live.path("spec")).putObject("ordinals").put("start", 1);
        ((ObjectNode) declared.path("spec")).putObject("ordinals").put("start", 1);
        Decision d = Decider.decideOne(declared, live, List.of(claim("data-db-0", "1Gi", "1Gi"), claim("data-db-1", "1Gi", "1Gi"),
                claim("data-db-2", "1Gi", "1Gi"), claim("data-db-3", "1Gi", "1Gi")), CLASSES);
        assertThat(d.claims()).extracting(c -> c.name() + " " + c.scaledAway())
                .containsExactly("data-db-0 true", "data-db-1 false", "data-db-2 false", "data-db-3 true");
    }

    @Test
    void eachClaimSaysWhetherItsClassExpandsOrThatItIsNotKnown() {
        List<ObjectNode> classes = List.of(CLASSES.get(0), obj("{'metadata':{'name':'slow'},'allowVolumeExpansion':false}"));
        ObjectNode onSlow = claim("data-db-1", "1Gi", "1Gi");
        ((ObjectNode) onSlow.path("spec")).put("storageClassName", "slow");
        ObjectNode withoutClass = claim("data-db-2", "1Gi", "1Gi");
        ((ObjectNode) withoutClass.path("spec")).remove("storageClassName");
        List<ObjectNode> claims = List.of(claim("data-db-0", "1Gi", "1Gi"), onSlow, withoutClass);
        ObjectNode sts = withReplicas(sts("a", "db", "1Gi"), 3);
        assertThat(Decider.decideOne(sts, sts, claims, classes, true).claims()).extracting(c -> c.name() + " " + c.expansion())
                .containsExactly("data-db-0 true", "data-db-1 false", "data-db-2 false");
        assertThat(Decider.decideOne(sts, sts, claims, classes, false).claims())
                .as("classes not readable: a claim with a class is taken to expand (its dry run decides), one without does not")
                .extracting(c -> c.name() + " " + c.expandable() + " " + c.expansion())
                .containsExactly("data-db-0 true unknown", "data-db-1 true unknown", "data-db-2 false false");
    }
}
