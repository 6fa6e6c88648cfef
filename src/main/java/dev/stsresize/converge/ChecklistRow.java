package dev.stsresize.converge;

import dev.stsresize.plan.Decision;
import dev.stsresize.plan.Metadata;
import dev.stsresize.plan.Verdict;
import java.util.List;
import java.util.function.Consumer;

/**
 * One row of the wizard's checklist ({@link Phase#checklist}) run on a machine: the row's gate passed (the front end
 * asked the operator before it asked for the row), then the machine advanced while it stands in a phase shown in the
 * row ({@link Convergence.View#inRow}). The row closes on what the machine said it did; the checklist's last row on the
 * run's result, which only the objects read back may call verified ({@link ReadBack#verification}).
 */
public final class ChecklistRow {
    /**
     * How a row closed: whether it went as it should and the sentence it closes on; whether the machine advanced in it
     * ({@code ran}: what it wrote is worth reading back); for the checklist's last row of a run that ended with a result,
     * that result to verify ({@code said} is then "": the verification says it).
     */
    public record Closed(boolean ok, String said, boolean ran, StatefulSetResult toVerify) {
        static Closed refused(String said) {
            return new Closed(false, said, false, null);
        }
    }

    private ChecklistRow() {}

    /**
     * @param uid the StatefulSet's UID the operator typed the name for (the orphan delete's gate)
     * @param eachTurn told what each turn did where the row spans several turns worth showing as they happen
     */
    public static Closed run(Convergence m, Phase row, String uid, Consumer<String> eachTurn) {
        Decision d = m.decision();
        List<Phase> checklist = Phase.checklist(d);
        boolean last = checklist.indexOf(row) == checklist.size() - 1;
        if (!m.view().inRow(row) && !(last && m.finished() != null)) {
            return Closed.refused(m.finished() != null ? m.view().ending() : "the run of " + Metadata.key(d.namespace(), d.name())
                    + " is not at its " + row.label() + ": leave the wizard and open it again");
        }
        m.passed(row.rowGate(), uid);
        // a copy's row spans every ordinal (evict, copy, rebind, re-apply, pod Ready): what the machine says of each turn is
        // told as it happens, so the row shows which pod is down and how far it is; any other row closes on its last word
        boolean tellEachTurn = d.verdict() == Verdict.COPY && row == Phase.COPY;
        String told = m.said();
        while (m.view().inRow(row)) {
            if (m.advance() instanceof Convergence.Turn.AtGate g) {
                return Closed.refused("the " + g.gate().words() + " gate has not been passed: nothing was written");
            }
            String said = m.said();
            if (tellEachTurn && !said.equals(told) && m.view().inRow(row)) {
                eachTurn.accept(said);
            }
            told = said;
        }
        Convergence.View v = m.view();
        StatefulSetResult result = v.ended() == null ? null : v.ended().result();
        if (last && result != null) {
            return new Closed(true, "", true, result);
        }
        if (last || v.ended() != null && !(result != null && result.succeeded())) {
            return new Closed(false, v.ending(), true, null);
        }
        return new Closed(true, v.said() + (v.ended() == null ? "" : "; the Lease is released (no recreate needed)"), true, null);
    }
}
