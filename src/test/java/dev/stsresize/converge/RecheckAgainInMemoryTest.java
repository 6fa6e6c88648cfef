package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.plan.CopyOptIn;
import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Verdict;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The wizard's CHECK on the in-memory demo cluster: the row shown is assessed again at apply depth, with the opt-in the
 * operator chose for that row only; a run that may start says what was re-read and proved, and nothing is written.
 */
class RecheckAgainInMemoryTest extends OnMemoryWorld {
    private static final CopyOptIn COPY_TO_FAST = new CopyOptIn(true, Optional.of("fast-online"), "registry.local/busybox:1");

    private Recheck.Checked again(String name, Decision shown, String shownUid, ConvergeOptions options) {
        return Recheck.again(w.cluster, MemoryWorld.declared(name), shown, shownUid, Recheck.optionsFor(shown, options), w.heard);
    }

    @Test
    void aGrowthShownIsReReadAndMayStartSayingTheOrphanDeleteOfTheUidItWillDelete() {
        String uid = w.uid("StatefulSet", "shop", "postgres");
        Decision shown = w.assess("postgres").decision();

        Recheck.Checked c = again("postgres", shown, uid, MemoryWorld.options());

        assertThat(c.proceeds()).as(c.problem()).isTrue();
        assertThat(c.leases()).isTrue();
        assertThat(c.uid()).isEqualTo(uid);
        assertThat(c.accepted(MemoryWorld.options())).isEqualTo("re-read: 3 claim(s) to grow, then the orphan delete of UID " + uid
                + " and the re-apply; every permission and dry run accepted");
        assertThat(w.cluster.realWrites()).as("a check writes nothing").isEmpty();
    }

    @Test
    void claimsThatLagAreGrownWithoutARecreate() {
        Decision shown = w.assess("minio").decision();

        Recheck.Checked c = again("minio", shown, "", MemoryWorld.options());

        assertThat(c.proceeds()).as(c.problem()).isTrue();
        assertThat(c.accepted(MemoryWorld.options())).isEqualTo("re-read: 4 claim(s) to grow; every permission and dry run accepted");
    }

    @Test
    void aStatefulSetReCreatedSinceTheListWasShownDoesNotStart() {
        Decision shown = w.assess("postgres").decision();

        Recheck.Checked c = again("postgres", shown, "uid-of-the-list", MemoryWorld.options());

        assertThat(c.proceeds()).isFalse();
        assertThat(c.problem()).startsWith("StatefulSet shop/postgres was re-created since the list was read (UID uid-of-the-list is now ");
    }

    @Test
    void aRowTheOperatorChoseToCopyIsCheckedAsACopyWithTheImageSaid() {
        ConvergeOptions copying = MemoryWorld.options().withCopy(COPY_TO_FAST);
        Decision shown = new Assessor(w.cluster, w.heard).copying(COPY_TO_FAST).assess(java.util.List.of(MemoryWorld.declared("mysql")),
                false, Assessor.Depth.APPLY, false, Optional.empty()).items().get(0).decision();
        assertThat(shown.verdict()).as(shown.detail()).isEqualTo(Verdict.COPY);

        Recheck.Checked c = again("mysql", shown, "", copying);

        assertThat(c.proceeds()).as(c.problem()).isTrue();
        assertThat(c.accepted(copying)).isEqualTo("re-read: 1 claim(s) to copy to bigger volumes, one pod at a time, with the copy image"
                + " registry.local/busybox:1; every permission and dry run accepted");
    }

    @Test
    void aCopyIsNeverDecidedForARowShownAsAnythingElse() {
        ConvergeOptions copying = MemoryWorld.options().withCopy(COPY_TO_FAST);
        Decision refused = w.assess("mysql").decision();

        assertThat(Recheck.optionsFor(refused, copying).copy()).isEqualTo(CopyOptIn.NONE);
        Recheck.Checked c = again("mysql", refused, "", copying);
        assertThat(c.assessed().decision().verdict()).isEqualTo(Verdict.REFUSED);
        assertThat(c.problem()).startsWith("re-read, legacy/mysql is REFUSED: not-expandable now: ");
    }

    @Test
    void aCopyRowChosenWithTheListsKeyTakesTheDefaultsAndTheOperatorsCopyOptionsStand() {
        Decision copyRow = new dev.stsresize.plan.Plan("legacy", "mysql", Verdict.COPY, java.util.List.of(), java.util.List.of(),
                java.util.List.of(), "");

        assertThat(Recheck.optionsFor(copyRow, MemoryWorld.options()).copy()).isEqualTo(CopyOptIn.withDefaults());
        assertThat(Recheck.optionsFor(copyRow, MemoryWorld.options().withCopy(COPY_TO_FAST)).copy()).isEqualTo(COPY_TO_FAST);
    }

    @Test
    void whatTheAssessmentNotesIsReportedAsTheChecksWarnings() {
        w.cluster.persistentVolumesForbidden = true;
        ConvergeOptions copying = MemoryWorld.options().withCopy(CopyOptIn.withDefaults());
        Decision shown = new dev.stsresize.plan.Plan("legacy", "mysql", Verdict.COPY, java.util.List.of(), java.util.List.of(),
                java.util.List.of(), "");

        again("mysql", shown, "", copying);

        assertThat(w.heard.events).anySatisfy(e -> {
            assertThat(e.step()).isEqualTo(Phase.CHECK);
            assertThat(e.warning()).isTrue();
            assertThat(e.message()).startsWith("PersistentVolumes cannot be listed");
        });
    }
}
