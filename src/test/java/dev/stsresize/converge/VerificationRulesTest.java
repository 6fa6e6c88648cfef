package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the end of a run says, from the objects read back: a run is verified only when it converged and every pod kept its
 * UID (or was restarted for its file system) under the new StatefulSet; the sentence counts what the objects bear out.
 */
class VerificationRulesTest {
    private static final Verification.Pod KEPT = new Verification.Pod("db-0", "p0", "p0", "sts-new", false);
    private static final Verification.Claim AT_TARGET = new Verification.Claim("data-db-0", "10Gi", "20Gi", "20Gi", true, false, "", "");

    private static Verification of(boolean converged, List<Verification.Pod> pods, List<Verification.Claim> claims) {
        return new Verification(converged ? "converged" : "failed", converged, converged ? null : "wait-timeout", "the run's words",
                "sts-old", "sts-new", pods, claims, List.of());
    }

    private static Verification.Claim fileSystem(String name, String word) {
        return new Verification.Claim(name, "10Gi", "20Gi", "20Gi", true, false, "", word);
    }

    @Test
    void aPodIsTheSameOnlyWhenItHadAUidAndStillHasIt() {
        assertThat(KEPT.sameUid()).isTrue();
        assertThat(new Verification.Pod("db-0", "", "", "sts-new", false).sameUid()).as("no UID before").isFalse();
        assertThat(new Verification.Pod("db-0", "p0", "p9", "sts-new", false).sameUid()).isFalse();
    }

    @Test
    void onlyAWaitingFileSystemOfAMountedClaimIsOfferedARestart() {
        assertThat(new Verification.Claim("data-db-0", "10Gi", "20Gi", "20Gi", true, true, "db-0", "pending").restartable()).isTrue();
        assertThat(new Verification.Claim("data-db-0", "10Gi", "20Gi", "20Gi", true, true, "", "pending").restartable()).isFalse();
        assertThat(new Verification.Claim("data-db-0", "10Gi", "20Gi", "20Gi", true, false, "db-0", "").restartable()).isFalse();
    }

    @Test
    void aPodIsOwnedByTheNewStatefulSetOnlyWhenThereIsOne() {
        Verification gone = new Verification("failed", false, "", "", "sts-old", "", List.of(KEPT), List.of(), List.of());
        assertThat(gone.ownedByNew(new Verification.Pod("db-0", "p0", "p0", "", false))).isFalse();
        assertThat(of(true, List.of(KEPT), List.of()).ownedByNew(KEPT)).isTrue();
    }

    @Test
    void aRunThatDidNotConvergeSaysItsOutcomeReasonAndWords() {
        Verification failed = of(false, List.of(KEPT), List.of(AT_TARGET));
        assertThat(failed.reason()).isEqualTo("wait-timeout");
        assertThat(failed.problems()).containsExactly("failed (wait-timeout): the run's words");
        assertThat(failed.verified()).isFalse();
        assertThat(failed.sentence(false)).isEqualTo("failed (wait-timeout): the run's words");

        Verification noReason = new Verification("blocked", false, null, "held", "sts-old", "sts-new", List.of(), List.of(), List.of());
        assertThat(noReason.reason()).isEmpty();
        assertThat(noReason.problems()).containsExactly("blocked: held");
    }

    @Test
    void aPodRestartedForItsFileSystemIsNoProblemOneUnderTheOldStatefulSetIs() {
        Verification.Pod restarted = new Verification.Pod("db-1", "p1", "p1b", "sts-new", true);
        Verification.Pod orphan = new Verification.Pod("db-2", "p2", "p2", "sts-old", false);
        assertThat(of(true, List.of(KEPT, restarted), List.of()).problems()).isEmpty();
        assertThat(of(true, List.of(KEPT, restarted, orphan), List.of()).problems()).containsExactly("pod db-2 is not owned by sts-new");
        Verification claimsOnly = new Verification("claims-grown", true, "", "", "sts-old", "", List.of(orphan), List.of(), List.of());
        assertThat(claimsOnly.problems()).as("no new StatefulSet to be owned by").isEmpty();
    }

    @Test
    void theSentenceCountsPodsKeptOrRestartedAndClaimsAtCapacity() {
        Verification.Claim below = new Verification.Claim("data-db-1", "10Gi", "20Gi", "10Gi", false, false, "", "");
        assertThat(of(true, List.of(KEPT), List.of(AT_TARGET, below)).sentence(false)).isEqualTo("verified from the objects read back:"
                + " 1 pod(s) name the new StatefulSet as controller and kept their UIDs; 1 of 2 claim(s) at capacity; file systems not"
                + " followed");
        Verification.Pod restarted = new Verification.Pod("db-1", "p1", "p1b", "sts-new", true);
        assertThat(of(true, List.of(KEPT, restarted), List.of(fileSystem("data-db-0", "grown"))).sentence(false))
                .isEqualTo("verified from the objects read back: 2 pod(s) name the new StatefulSet as controller, 1 restarted for their"
                        + " file systems; 1 of 1 claim(s) at capacity; the pods can write to the new space");
        assertThat(of(true, List.of(KEPT), List.of(fileSystem("data-db-0", "pending"))).sentence(false))
                .endsWith("; the pods cannot use all of the new space yet");
    }

    @Test
    void aCopyIsVerifiedByItsPodsReCreatedOnTheirNewVolumes() {
        Verification.Pod recreated = new Verification.Pod("db-0", "p0", "p0", "sts-new", false);
        assertThat(of(true, List.of(recreated), List.of(AT_TARGET)).sentence(true)).isEqualTo("verified from the objects read back: 1"
                + " pod(s) re-created on their new volumes, each naming the new StatefulSet as controller; 1 of 1 claim(s) at capacity");
    }

    @Test
    void theSpaceIsUsableWhenEveryFollowedFileSystemGrewOrNoPodWaitsForIt() {
        assertThat(of(true, List.of(), List.of(AT_TARGET)).spaceUsable()).as("none followed").isNull();
        assertThat(of(true, List.of(), List.of(AT_TARGET, fileSystem("data-db-1", "grown"), fileSystem("data-db-2", "no-pod")))
                .spaceUsable()).isTrue();
        assertThat(of(true, List.of(), List.of(fileSystem("data-db-1", "grown"), fileSystem("data-db-2", "pending"))).spaceUsable())
                .isFalse();
    }
}
