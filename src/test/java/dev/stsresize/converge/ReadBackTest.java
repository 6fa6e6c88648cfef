package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The end of a run as the wizard and the wizard's resume show it is what the objects say now, never the run's own
 * result nor a condition alone: where the objects contradict a result that says converged, the verification says so.
 */
class ReadBackTest {
    private static final StatefulSetResult CONVERGED = new StatefulSetResult("shop", "db", Outcome.CONVERGED, "", "re-applied and adopted",
            List.of(new StatefulSetResult.ClaimResult("data-db-0", "10Gi", "20Gi", "20Gi")),
            List.of(new StatefulSetResult.PodResult("db-0", "pod-uid-0", "pod-uid-0")), List.of());

    private final MemoryCluster cluster = new MemoryCluster();

    private void statefulSet(String uid) {
        cluster.put("{'kind':'StatefulSet','metadata':{'namespace':'shop','name':'db','uid':'" + uid + "'}}");
    }

    private void pod(String uid, String owner) {
        cluster.put("{'kind':'Pod','metadata':{'namespace':'shop','name':'db-0','uid':'" + uid + "','ownerReferences':[{'controller':true,"
                + "'uid':'" + owner + "'}]},'spec':{'volumes':[{'persistentVolumeClaim':{'claimName':'data-db-0'}}]}}");
    }

    private void claim(String capacity, String... conditions) {
        StringBuilder c = new StringBuilder();
        for (String type : conditions) {
            c.append(c.length() == 0 ? "" : ",").append("{'type':'").append(type).append("','status':'True'}");
        }
        cluster.put("{'kind':'PersistentVolumeClaim','metadata':{'namespace':'shop','name':'data-db-0'},'spec':{'resources':{'requests':"
                + "{'storage':'20Gi'}}},'status':{'phase':'Bound','capacity':{'storage':'" + capacity + "'},'conditions':[" + c + "]}}");
    }

    private Verification read() {
        return new ReadBack(cluster).verification("sts-old", Set.of(), CONVERGED);
    }

    @Test
    void whatTheObjectsBearOutIsVerified() {
        statefulSet("sts-new");
        pod("pod-uid-0", "sts-new");
        claim("20Gi");
        Verification v = read();
        assertThat(v.problems()).isEmpty();
        assertThat(v.verified()).isTrue();
        assertThat(v.claims()).singleElement().satisfies(c -> assertThat(c.atTarget()).isTrue());
        assertThat(v.sentence(false)).startsWith("verified from the objects read back: 1 pod(s) name the new StatefulSet as controller and"
                + " kept their UIDs; 1 of 1 claim(s) at capacity");
    }

    @Test
    void aPodReplacedSinceTheRunIsNotVerifiedWhateverTheResultSays() {
        statefulSet("sts-new");
        pod("pod-uid-9", "sts-new");
        claim("20Gi");
        Verification v = read();
        assertThat(v.verified()).isFalse();
        assertThat(v.problems()).containsExactly("pod db-0 was replaced");
        assertThat(v.sentence(false)).isEqualTo("pod db-0 was replaced");
    }

    @Test
    void aPodThatNamesAnotherControllerIsNotVerified() {
        statefulSet("sts-new");
        pod("pod-uid-0", "sts-old");
        claim("20Gi");
        assertThat(read().problems()).containsExactly("pod db-0 is not owned by sts-new");
    }

    @Test
    void aClaimIsAtItsTargetOnlyWhenItsCapacitySaysSoNotItsRequest() {
        statefulSet("sts-new");
        pod("pod-uid-0", "sts-new");
        claim("10Gi", "Resizing");
        Verification v = read();
        assertThat(v.claims()).singleElement().satisfies(c -> {
            assertThat(c.capacity()).isEqualTo("10Gi");
            assertThat(c.atTarget()).isFalse();
        });
        assertThat(v.sentence(false)).contains("0 of 1 claim(s) at capacity");
    }

    @Test
    void aPodGoneIsSaid() {
        statefulSet("sts-new");
        claim("20Gi");
        assertThat(read().problems()).containsExactly("pod db-0 is gone");
    }
}
