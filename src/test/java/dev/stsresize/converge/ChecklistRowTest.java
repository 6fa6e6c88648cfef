package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The wizard's checklist rows run on a machine, on the in-memory demo cluster: a row's gate is passed, the machine
 * advances while the run stands in the row, the row closes on what the machine said (the last row on the result to
 * verify), and a row the run does not stand in is refused with nothing written.
 */
class ChecklistRowTest extends OnMemoryWorld {
    private final List<String> told = new ArrayList<>();

    private ChecklistRow.Closed row(Convergence m, Phase row) {
        return ChecklistRow.run(m, row, w.uid("StatefulSet", m.namespace(), m.name()), told::add);
    }

    @Test
    void the_grow_row_passes_the_confirm_gate_takes_the_lease_and_closes_on_the_patches() {
        Convergence m = w.start("postgres");
        ChecklistRow.Closed grow = row(m, Phase.GROW);
        assertThat(grow).isEqualTo(new ChecklistRow.Closed(true, "3 claim(s) patched; the Lease holds the run while the claims grow",
                true, null));
        assertThat(m.position()).as("the run stands in the next row").isEqualTo(Phase.WAIT);
        assertThat(w.cluster.writes("patchClaimStorage")).extracting(MemoryCluster.Call::dryRun).contains(false);
        assertThat(told).as("only a copy's row tells each turn").isEmpty();
    }

    @Test
    void each_row_of_a_recreate_closes_on_what_its_turns_did_and_the_last_on_the_result_to_verify() {
        Convergence m = w.start("postgres");
        row(m, Phase.GROW);
        assertThat(row(m, Phase.WAIT)).isEqualTo(new ChecklistRow.Closed(true, "capacity reached on 3 claim(s)", true, null));
        assertThat(w.cluster.realDeletes()).as("the delete waits for its own row").isEmpty();
        assertThat(row(m, Phase.ORPHAN_DELETE)).isEqualTo(new ChecklistRow.Closed(true, "StatefulSet gone (404); pods and claims"
                + " re-read: each still there with its UID", true, null));
        assertThat(row(m, Phase.REAPPLY).said()).isEqualTo("re-applied: the StatefulSet stands again, with the grown claim templates");
        ChecklistRow.Closed verify = row(m, Phase.VERIFY);
        assertThat(verify.ok()).isTrue();
        assertThat(verify.said()).as("the verification says it").isEmpty();
        assertThat(verify.ran()).isTrue();
        assertThat(verify.toVerify().outcome()).isEqualTo(Outcome.CONVERGED);
        assertThat(verify.toVerify()).isSameAs(m.finished().result());
        w.assertSafe();
    }

    @Test
    void the_delete_row_deletes_only_the_statefulset_of_the_uid_the_name_was_typed_for() {
        Convergence m = w.start("postgres");
        row(m, Phase.GROW);
        row(m, Phase.WAIT);
        String uid = w.uid("StatefulSet", "shop", "postgres");
        ChecklistRow.run(m, Phase.ORPHAN_DELETE, uid, told::add);
        assertThat(w.cluster.realDeletes()).singleElement().satisfies(d -> assertThat(d.detail())
                .startsWith("uid=" + uid + " "));
    }

    @Test
    void a_row_the_run_does_not_stand_in_is_refused_with_nothing_written() {
        Convergence m = w.start("postgres");
        ChecklistRow.Closed refused = row(m, Phase.REAPPLY);
        assertThat(refused).isEqualTo(new ChecklistRow.Closed(false, "the run of shop/postgres is not at its re-apply: leave the"
                + " wizard and open it again", false, null));
        assertThat(m.position()).isEqualTo(Phase.LOCK);
        assertThat(w.cluster.realWrites()).isEmpty();
        assertThat(row(m, Phase.WAIT).ok()).as("the wait is not the grow's row").isFalse();
        assertThat(w.cluster.realWrites()).isEmpty();
    }

    @Test
    void a_row_asked_for_after_the_run_ended_is_refused_with_how_it_ended() {
        w.resizer = c -> ((ObjectNode) c.path("status")).putObject("capacity").put("storage", "10Gi");
        Convergence m = w.start("postgres");
        m.answerGrow(false);
        m.advance();
        ChecklistRow.Closed refused = row(m, Phase.ORPHAN_DELETE);
        assertThat(refused).isEqualTo(new ChecklistRow.Closed(false, "failed (declined): the operator declined; nothing was written",
                false, null));
    }

    @Test
    void the_last_row_of_a_run_that_ended_before_it_closes_on_that_result_to_verify() {
        Convergence m = w.start("postgres");
        m.answerGrow(false);
        m.advance();
        ChecklistRow.Closed last = row(m, Phase.VERIFY);
        assertThat(last.ok()).isTrue();
        assertThat(last.toVerify().reason()).as("the verification reads it back and says it").isEqualTo("declined");
    }

    @Test
    void a_row_whose_turn_ends_the_run_unsuccessfully_closes_not_ok_on_how_it_ended() {
        w.cluster.afterWrite = w.cluster.afterWrite.andThen(c -> {
            if (c.method().equals("patchClaimStorage") && !c.dryRun()) {
                w.cluster.remove("PersistentVolumeClaim", c.namespace(), c.name());
            }
        });
        Convergence m = w.start("postgres");
        row(m, Phase.GROW);
        ChecklistRow.Closed waited = row(m, Phase.WAIT);
        assertThat(waited.ok()).isFalse();
        assertThat(waited.ran()).isTrue();
        assertThat(waited.toVerify()).isNull();
        assertThat(waited.said()).isEqualTo(m.view().ending()).startsWith("failed (claim-gone): claim(s) data-postgres-0,");
    }

    @Test
    void a_run_that_only_grows_claims_goes_from_its_wait_row_to_its_last_row_the_verification() {
        // the claims of minio lag their template: grown and verified, no recreate; its verification's row is its last
        Convergence m = w.start("minio");
        row(m, Phase.GROW);
        ChecklistRow.Closed waited = row(m, Phase.WAIT);
        assertThat(waited.ok()).isTrue();
        assertThat(waited.said()).isEqualTo("capacity reached on 4 claim(s)");
        ChecklistRow.Closed last = row(m, Phase.VERIFY);
        assertThat(last.toVerify().outcome()).isEqualTo(Outcome.CLAIMS_GROWN);
    }

    @Test
    void a_copy_s_rows_take_the_lease_in_the_retain_row_and_tell_each_turn_of_the_copy_row_as_it_happens() {
        Convergence m = MysqlCopy.start(w);
        assertThat(row(m, Phase.RETAIN)).isEqualTo(new ChecklistRow.Closed(true, "every volume to copy is kept by reclaim policy"
                + " Retain, its policy before recorded", true, null));
        assertThat(told).as("the retain row closes on its last word").isEmpty();
        assertThat(row(m, Phase.ORPHAN_DELETE).said()).startsWith("StatefulSet gone (404)");
        assertThat(told).isEmpty();

        // the in-memory cluster runs no copy pod: the copy does not end before --timeout and the StatefulSet comes back
        ChecklistRow.Closed copy = row(m, Phase.COPY);
        assertThat(told).containsExactly("pod mysql-0 is down: its claims are copied next");
        assertThat(copy.ok()).isFalse();
        assertThat(copy.ran()).isTrue();
        assertThat(copy.said()).isEqualTo(m.view().ending()).startsWith("failed (copy-stopped): ");
    }
}
