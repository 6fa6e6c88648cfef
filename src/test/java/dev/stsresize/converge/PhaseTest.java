package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.plan.Verdict;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The one vocabulary of the procedure: what every front end and the record read from {@link Phase}. */
class PhaseTest {
    /**
     * Records written by earlier versions say these words; a resume reads them back. Renaming a phase's
     * record word strands every run recorded before it.
     */
    @Test
    void theRecordsWordsAreTheOnesEarlierVersionsWrote() {
        Map<String, Phase> recorded = Arrays.stream(Phase.values()).filter(p -> !p.recorded().isEmpty())
                .collect(Collectors.toMap(Phase::recorded, p -> p));
        // the grow's words, then the copy migration's
        assertThat(recorded).containsExactlyInAnyOrderEntriesOf(Map.ofEntries(Map.entry("locked", Phase.LOCK), Map.entry("growing", Phase.GROW),
                Map.entry("deleting", Phase.ORPHAN_DELETE), Map.entry("reapplying", Phase.REAPPLY), Map.entry("verifying", Phase.VERIFY),
                Map.entry("retaining", Phase.RETAIN), Map.entry("evicting", Phase.EVICT), Map.entry("copying", Phase.COPY),
                Map.entry("rebinding", Phase.REBIND), Map.entry("reclaiming", Phase.RECLAIM)));
        recorded.forEach((word, phase) -> assertThat(Phase.ofRecorded(word)).isEqualTo(phase));
        assertThat(Phase.ofRecorded("")).isNull();
        assertThat(Phase.ofRecorded("copying-everything")).isNull();
    }

    /** The delete gate counts as passed from the phase deleting on: a resume then needs no second question. */
    @Test
    void onlyARecordAtTheDeleteOrLaterPassedItsGate() {
        assertThat(List.of("deleting", "reapplying", "verifying", "evicting", "copying", "rebinding", "reclaiming"))
                .allMatch(Phase::pastTheDeleteGate);
        assertThat(List.of("locked", "growing", "retaining", "", "Deleting", "anything")).noneMatch(Phase::pastTheDeleteGate);
    }

    @Test
    void theGatesStandBeforeTheFirstWriteAndBeforeTheOrphanDelete() {
        assertThat(Arrays.stream(Phase.values()).filter(p -> p.gate().asks()))
                .containsExactly(Phase.LOCK, Phase.ORPHAN_DELETE);
        assertThat(Phase.LOCK.gate()).isEqualTo(Gate.CONFIRM);
        assertThat(Phase.ORPHAN_DELETE.gate()).isEqualTo(Gate.TYPE_NAME);
        // the wizard asks for the first write on the grow's row, where the Lease is taken
        assertThat(Phase.GROW.rowGate()).isEqualTo(Gate.CONFIRM);
        assertThat(Phase.WAIT.rowGate()).isEqualTo(Gate.NONE);
        // every phase that writes before the delete gate stands behind the confirm: none before LOCK writes
        assertThat(Arrays.stream(Phase.values()).filter(p -> p.compareTo(Phase.LOCK) < 0)).noneMatch(Phase::writes);
    }

    /** Every phase the machine passes is shown in a row of the wizard's checklist for a recreate. */
    @Test
    void everyPhaseOfTheRunIsShownInARowOfTheChecklist() {
        List<Phase> machine = List.of(Phase.LOCK, Phase.GROW, Phase.WAIT, Phase.ORPHAN_DELETE, Phase.REGROW, Phase.REAPPLY,
                Phase.VERIFY, Phase.FILE_SYSTEMS);
        List<Phase> rows = List.of(Phase.CHECK, Phase.GROW, Phase.WAIT, Phase.ORPHAN_DELETE, Phase.REAPPLY, Phase.VERIFY);
        assertThat(machine).allMatch(p -> rows.contains(p.shownAs()));
        assertThat(rows).allMatch(r -> r.shownAs() == r);
        assertThat(Arrays.stream(Phase.values()).map(Phase::label).distinct().count()).isEqualTo(Phase.values().length);
        assertThat(Arrays.stream(Phase.values())).allMatch(p -> !p.purpose().isBlank() && !p.designStep().isBlank());
    }

    /** Every phase a copy passes is shown in a row of the copy's checklist, the Lease in the row that asks first. */
    @Test
    void everyPhaseOfACopyIsShownInARowOfItsChecklist() {
        List<Phase> machine = List.of(Phase.LOCK, Phase.RETAIN, Phase.ORPHAN_DELETE, Phase.EVICT, Phase.COPY, Phase.REBIND, Phase.REAPPLY,
                Phase.POD_READY, Phase.RECLAIM, Phase.VERIFY);
        List<Phase> rows = List.of(Phase.CHECK, Phase.RETAIN, Phase.ORPHAN_DELETE, Phase.COPY, Phase.VERIFY);
        assertThat(machine).allMatch(p -> rows.contains(p.shownInCopyAs()));
        assertThat(rows).allMatch(r -> r.shownInCopyAs() == r);
        assertThat(Phase.RETAIN.rowGate()).isEqualTo(Gate.CONFIRM);
        assertThat(Phase.COPY.rowGate()).isEqualTo(Gate.NONE);
    }

    /** The wizard's rows: a copy's, a recreate's, and claims that merely lag (grown and verified, nothing re-created). */
    @Test
    void theChecklistFollowsWhatTheDecisionWrites() {
        assertThat(Phase.checklist(DecisionValues.plan(Verdict.COPY))).containsExactly(Phase.CHECK, Phase.RETAIN, Phase.ORPHAN_DELETE,
                Phase.COPY, Phase.VERIFY);
        assertThat(Phase.checklist(DecisionValues.plan(Verdict.GROW))).containsExactly(Phase.CHECK, Phase.GROW, Phase.WAIT,
                Phase.ORPHAN_DELETE, Phase.REAPPLY, Phase.VERIFY);
        assertThat(Phase.checklist(DecisionValues.plan(Verdict.GROW_CLAIMS))).containsExactly(Phase.CHECK, Phase.GROW, Phase.WAIT,
                Phase.VERIFY);
    }

    /** A copy re-creates its pods on purpose: its verification says so, a grow's that the pods were adopted. */
    @Test
    void theVerificationOfACopySaysThePodsAreReCreatedOnTheNewVolumes() {
        assertThat(Phase.VERIFY.purposeIn(DecisionValues.plan(Verdict.COPY))).isEqualTo("pods re-created on the new volumes, capacity at target");
        assertThat(Phase.VERIFY.purposeIn(DecisionValues.plan(Verdict.GROW))).isEqualTo("pods adopted (same UIDs), capacity at target");
        assertThat(Phase.VERIFY.purposeIn(null)).isEqualTo(Phase.VERIFY.purpose());
        assertThat(Phase.GROW.purposeIn(DecisionValues.plan(Verdict.COPY))).isEqualTo(Phase.GROW.purpose());
    }

    /** Whether a phase changes the cluster is what a dry run skips and what the wizard asks before. */
    @Test
    void exactlyThePhasesThatChangeTheClusterWrite() {
        assertThat(Arrays.stream(Phase.values()).filter(Phase::writes)).containsExactlyInAnyOrder(Phase.LOCK, Phase.RETAIN, Phase.GROW,
                Phase.ORPHAN_DELETE, Phase.EVICT, Phase.COPY, Phase.REBIND, Phase.REGROW, Phase.REAPPLY, Phase.RECLAIM, Phase.RESTART,
                Phase.RECORD, Phase.RESUME, Phase.REVERT);
    }

    /** A phase shown inside another row asks nothing of its own there; the rows outside the procedures ask nothing. */
    @Test
    void onlyTheRowsOfTheFirstWriteAndOfTheDeleteAsk() {
        assertThat(Arrays.stream(Phase.values()).filter(p -> p.rowGate().asks()))
                .containsExactlyInAnyOrder(Phase.GROW, Phase.RETAIN, Phase.ORPHAN_DELETE);
        assertThat(Phase.ORPHAN_DELETE.rowGate()).isEqualTo(Gate.TYPE_NAME);
        assertThat(Phase.LOCK.rowGate()).as("no row of its own").isEqualTo(Gate.NONE);
        assertThat(Phase.REVERT.shownAs()).isEqualTo(Phase.REVERT);
        assertThat(Phase.REVERT.shownInCopyAs()).isEqualTo(Phase.REVERT);
    }
}
