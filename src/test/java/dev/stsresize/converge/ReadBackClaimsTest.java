package dev.stsresize.converge;

import static dev.stsresize.converge.DecisionValues.claim;
import static dev.stsresize.converge.DecisionValues.plan;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.stsresize.plan.Verdict;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The claims and pods of a run as read back now: each claim it grows read as the wait reads it, the pods and claims of
 * the verification in ordinal order (db-10 after db-2), a file system's waiting pod named only when it mounts the claim,
 * and the run's own word about a file system corrected where the claim since says the kubelet grew it.
 */
class ReadBackClaimsTest {
    private final MemoryCluster cluster = new MemoryCluster();
    private final ReadBack readBack = new ReadBack(cluster);

    private void claimAt(String name, String capacity, boolean fileSystemPending) {
        cluster.put("{'kind':'PersistentVolumeClaim','metadata':{'namespace':'shop','name':'" + name + "'},'spec':{'resources':{'requests':"
                + "{'storage':'20Gi'}}},'status':{'phase':'Bound','capacity':{'storage':'" + capacity + "'},'conditions':["
                + (fileSystemPending ? "{'type':'FileSystemResizePending','status':'True'}" : "") + "]}}");
    }

    private void pod(String name, String uid, String claimName) {
        cluster.put("{'kind':'Pod','metadata':{'namespace':'shop','name':'" + name + "','uid':'" + uid + "','ownerReferences':[{"
                + "'controller':true,'uid':'sts-new'}]},'spec':{'volumes':[{'persistentVolumeClaim':{'claimName':'" + claimName + "'}}]}}");
    }

    private static StatefulSetResult result(Outcome outcome, List<StatefulSetResult.ClaimResult> claims, List<StatefulSetResult.PodResult> pods,
            String... warnings) {
        return new StatefulSetResult("shop", "db", outcome, "", "done", claims, pods, List.of(warnings));
    }

    @Test
    void eachClaimTheRunGrowsIsReadNowAndOneThatCannotBeReadIsLeftOut() {
        claimAt("data-db-1", "20Gi", false);
        claimAt("data-db-3", "10Gi", false);
        cluster.failNext("getClaim", MemoryCluster.error(500, "InternalError", "etcd timeout"));

        List<ClaimGrower.ClaimStatus> read = readBack.claims(plan(Verdict.GROW_CLAIMS, claim("data-db-0", "10Gi", "10Gi", "20Gi", true),
                claim("data-db-1", "10Gi", "10Gi", "20Gi", true), claim("data-db-2", "10Gi", "10Gi", "20Gi", true),
                claim("data-db-3", "20Gi", "10Gi", "20Gi", false)));

        assertThat(read).extracting(ClaimGrower.ClaimStatus::name, ClaimGrower.ClaimStatus::state)
                .containsExactly(tuple("data-db-1", ClaimGrower.State.GROWN), tuple("data-db-2", ClaimGrower.State.GONE));
    }

    @Test
    void podsAndClaimsAreListedInOrdinalOrder() {
        cluster.put("{'kind':'StatefulSet','metadata':{'namespace':'shop','name':'db','uid':'sts-new'}}");
        for (String ordinal : List.of("2", "10")) {
            claimAt("data-db-" + ordinal, "20Gi", false);
            pod("db-" + ordinal, "p" + ordinal, "data-db-" + ordinal);
        }
        StatefulSetResult r = result(Outcome.CONVERGED,
                List.of(new StatefulSetResult.ClaimResult("data-db-10", "10Gi", "20Gi", "20Gi"),
                        new StatefulSetResult.ClaimResult("data-db-x", "10Gi", "20Gi", "20Gi"),
                        new StatefulSetResult.ClaimResult("data-db-2", "10Gi", "20Gi", "20Gi")),
                List.of(new StatefulSetResult.PodResult("db-10", "p10", "p10"), new StatefulSetResult.PodResult("db-2", "p2", "p2")));

        Verification v = readBack.verification("sts-old", Set.of(), r);

        assertThat(v.pods()).extracting(Verification.Pod::name).containsExactly("db-2", "db-10");
        assertThat(v.claims()).extracting(Verification.Claim::name).containsExactly("data-db-2", "data-db-10", "data-db-x");
        assertThat(v.newUid()).isEqualTo("sts-new");
        assertThat(v.verified()).as(v.problems().toString()).isTrue();
    }

    @Test
    void aRunThatOnlyGrewClaimsKeepsTheUidItStartedOnAndAPodRestartedForItsFileSystemIsNoReplacement() {
        cluster.put("{'kind':'StatefulSet','metadata':{'namespace':'shop','name':'db','uid':'sts-new'}}");
        claimAt("data-db-0", "20Gi", false);
        pod("db-0", "p0-new", "data-db-0");
        StatefulSetResult r = result(Outcome.CLAIMS_GROWN, List.of(new StatefulSetResult.ClaimResult("data-db-0", "10Gi", "20Gi", "20Gi")),
                List.of(new StatefulSetResult.PodResult("db-0", "p0", "p0")));

        Verification v = readBack.verification("sts-old", Set.of("db-0"), r);

        assertThat(v.newUid()).isEqualTo("sts-old");
        assertThat(v.pods()).singleElement().satisfies(p -> {
            assertThat(p.restarted()).isTrue();
            assertThat(p.uidAfter()).isEqualTo("p0-new");
        });
        assertThat(readBack.verification("sts-old", Set.of(), r).problems()).containsExactly("pod db-0 was replaced");
    }

    @Test
    void aWaitingFileSystemNamesThePodThatMountsItAndIsSaidOnItsOwnLineNotInTheRunsWords() {
        claimAt("data-db-0", "10Gi", true);
        claimAt("data-db-1", "10Gi", true);
        pod("db-0", "p0", "data-db-0");
        pod("db-1", "p1", "data-db-9");
        StatefulSetResult r = result(Outcome.CONVERGED, List.of(
                new StatefulSetResult.ClaimResult("data-db-0", "10Gi", "20Gi", "20Gi", FileSystem.PENDING, -1),
                new StatefulSetResult.ClaimResult("data-db-1", "10Gi", "20Gi", "20Gi", FileSystem.PENDING, -1)), List.of(),
                "claim data-db-0 waits for a file system resize on pod db-0: stale", "replicas carried over");

        Verification v = readBack.verification("sts-old", Set.of(), r);

        assertThat(v.claims()).extracting(Verification.Claim::name, Verification.Claim::fileSystemPending, Verification.Claim::pod,
                Verification.Claim::restartable).containsExactly(tuple("data-db-0", true, "db-0", true), tuple("data-db-1", true, "", false));
        assertThat(v.warnings()).containsExactly("replicas carried over");
    }

    @Test
    void theRunsWordForAFileSystemStandsUnlessTheClaimSinceSaysTheKubeletGrewIt() {
        claimAt("data-db-0", "20Gi", false);
        claimAt("data-db-1", "20Gi", false);
        claimAt("data-db-2", "20Gi", false);
        claimAt("data-db-3", "10Gi", false);
        StatefulSetResult r = result(Outcome.CLAIMS_GROWN, List.of(
                new StatefulSetResult.ClaimResult("data-db-0", "10Gi", "20Gi", "20Gi", FileSystem.PENDING, -1),
                new StatefulSetResult.ClaimResult("data-db-1", "10Gi", "20Gi", "20Gi", FileSystem.PENDING, 0),
                new StatefulSetResult.ClaimResult("data-db-2", "10Gi", "20Gi", "20Gi", FileSystem.NO_POD, -1),
                new StatefulSetResult.ClaimResult("data-db-3", "10Gi", "20Gi", "10Gi", FileSystem.WAITS_FOR_RESTART, -1),
                new StatefulSetResult.ClaimResult("data-db-4", "10Gi", "20Gi", "10Gi"),
                new StatefulSetResult.ClaimResult("data-db-5", "10Gi", "", "")), List.of());

        Verification v = readBack.verification("sts-old", Set.of(), r);

        // data-db-1's kubelet summary reported a size (0 bytes, a reading all the same): the run's word stands
        assertThat(v.claims()).extracting(Verification.Claim::fileSystem)
                .containsExactly("grown", "pending", "no-pod", "waits-for-restart", "", "");
        assertThat(v.claims()).extracting(Verification.Claim::capacity).containsExactly("20Gi", "20Gi", "20Gi", "10Gi", "", "");
        assertThat(v.claims()).extracting(Verification.Claim::atTarget).containsExactly(true, true, true, false, false, false);
    }
}
