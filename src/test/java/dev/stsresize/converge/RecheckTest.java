package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.plan.ClaimState;
import dev.stsresize.plan.Decider;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.LiveState;
import dev.stsresize.plan.Verdict;
import dev.stsresize.sim.demo.DemoScenario;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * The wizard's CHECK starts a run only when the StatefulSet, assessed again, would take exactly the writes the
 * list showed, on the UID the list showed: otherwise one sentence with its fix, and nothing written.
 */
class RecheckTest {
    private static final List<Decision> DEMO = demoDecisions();
    private static final Decision RECREATE = first(Decision::recreate);
    private static final Decision CLAIMS_ONLY = first(d -> d.verdict().hasWork() && !d.recreate());
    private static final Decision NO_WORK = first(d -> !d.verdict().hasWork());
    private static final Decision REFUSED = first(d -> d instanceof dev.stsresize.plan.Refusal);

    @Test
    void theSameWritesOnTheSameUidMayStart() {
        assertThat(Recheck.problem(RECREATE, "uid-1", assessed(RECREATE, "uid-1", null))).isEmpty();
        assertThat(Recheck.problem(RECREATE, "", assessed(RECREATE, "uid-2", null))).as("the list knew no UID").isEmpty();
    }

    @Test
    void aStatefulSetReCreatedSinceTheListIsRefused() {
        assertThat(Recheck.problem(RECREATE, "uid-1", assessed(RECREATE, "uid-2", null)))
                .contains("was re-created since the list was read (UID uid-1 is now uid-2)", "nothing was written", "refresh (r)");
    }

    @Test
    void otherWritesThanTheListShowsAreRefused() {
        assertThat(Recheck.problem(RECREATE, "uid-1", assessed(CLAIMS_ONLY, "uid-1", null)))
                .contains("needs other writes than the list shows", "nothing was written");
    }

    @Test
    void nothingLeftToDoIsRefused() {
        assertThat(Recheck.problem(RECREATE, "uid-1", assessed(NO_WORK, "uid-1", null))).contains("now:", "Nothing was written");
    }

    @Test
    void theServersFailureIsSaidAsItCame() {
        assertThat(Recheck.problem(RECREATE, "uid-1", assessed(RECREATE, "uid-1", "the dry run was refused: quota")))
                .isEqualTo("the dry run was refused: quota");
    }

    @Test
    void theVerdictIsSaidAsTheListShowsIt() {
        String key = RECREATE.namespace() + "/" + RECREATE.name();
        assertThat(Recheck.problem(RECREATE, "uid-1", assessed(NO_WORK, "uid-1", null)))
                .isEqualTo("re-read, " + key + " is UP TO DATE now: " + NO_WORK.detail() + ". Nothing was written");
        assertThat(Recheck.problem(RECREATE, "uid-1", assessed(REFUSED, "uid-1", null)))
                .startsWith("re-read, " + key + " is REFUSED: not-expandable now: not-expandable: ");
        assertThat(Recheck.problem(RECREATE, "uid-1", assessed(CLAIMS_ONLY, "uid-1", null))).contains("(GROW CLAIMS, ");
    }

    @Test
    void aCopyIsNeverStartedFromARowShownAsAGrowthNorTheReverse() {
        Decision copy = DecisionValues.plan(Verdict.COPY, DecisionValues.claim("data-db-0", "10Gi", "10Gi", "20Gi", true).toCopy());
        Decision grow = DecisionValues.plan(Verdict.GROW, DecisionValues.claim("data-db-0", "10Gi", "10Gi", "20Gi", true));
        assertThat(Recheck.problem(grow, "", assessed(copy, "uid-1", null)))
                .isEqualTo("re-read, shop/db is COPY now, not GROW as the list shows: nothing was written; leave and refresh (r)");
        assertThat(Recheck.problem(copy, "", assessed(grow, "uid-1", null))).startsWith("re-read, shop/db is GROW now, not COPY");
    }

    @Test
    void anotherNumberOfClaimsToGrowOrToCopyIsOtherWrites() {
        ClaimState c0 = DecisionValues.claim("data-db-0", "10Gi", "10Gi", "20Gi", true);
        ClaimState c1 = DecisionValues.claim("data-db-1", "10Gi", "10Gi", "20Gi", true);
        assertThat(Recheck.problem(DecisionValues.plan(Verdict.GROW, c0, c1), "", assessed(DecisionValues.plan(Verdict.GROW, c0), "u", null)))
                .isEqualTo("re-read, shop/db needs other writes than the list shows (GROW, 1 claim(s) to grow): nothing was written;"
                        + " leave and refresh (r)");
        assertThat(Recheck.problem(DecisionValues.plan(Verdict.COPY, c0.toCopy(), c1.toCopy()), "",
                assessed(DecisionValues.plan(Verdict.COPY, c0.toCopy()), "u", null))).contains("needs other writes");
        assertThat(Recheck.problem(DecisionValues.plan(Verdict.COPY, c0.toCopy()), "",
                assessed(DecisionValues.plan(Verdict.COPY, c0.toCopy()), "u", null))).isEmpty();
    }

    @Test
    void aStatefulSetGoneSinceTheListHasNoUidToStartOn() {
        Assessed gone = new Assessed(RECREATE, null, null, null, "kubectl", null);
        assertThat(Recheck.problem(RECREATE, "uid-1", gone)).contains("(UID uid-1 is now )");
        assertThat(new Recheck.Checked(gone, true, "").uid()).isEmpty();
    }

    private static Assessed assessed(Decision d, String liveUid, String failure) {
        ObjectNode live = new ObjectMapper().createObjectNode();
        live.putObject("metadata").put("uid", liveUid);
        return new Assessed(d, null, live, null, "kubectl", failure);
    }

    private static Decision first(Predicate<Decision> p) {
        return DEMO.stream().filter(p).findFirst().orElseThrow();
    }

    private static List<Decision> demoDecisions() {
        List<ObjectNode> sts = new ArrayList<>();
        List<ObjectNode> claims = new ArrayList<>();
        List<ObjectNode> classes = new ArrayList<>();
        List<ObjectNode> drivers = new ArrayList<>();
        for (ObjectNode o : DemoScenario.cluster()) {
            switch (o.path("kind").asText()) {
                case "StatefulSet" -> sts.add(o);
                case "PersistentVolumeClaim" -> claims.add(o);
                case "StorageClass" -> classes.add(o);
                case "CSIDriver" -> drivers.add(o);
                default -> { }
            }
        }
        return Decider.decide(DemoScenario.manifest(), new LiveState(sts, claims, classes, true, drivers, true));
    }
}
