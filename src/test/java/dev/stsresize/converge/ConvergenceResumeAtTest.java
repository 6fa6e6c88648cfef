package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Where a stopped run goes on, computed from its record and the StatefulSet standing now, as the
 * StatefulSet controller computes its next action from the object's status: no request, no cluster.
 */
class ConvergenceResumeAtTest {
    private static final ObjectNode LIVE = Objects.MAPPER.createObjectNode();

    private static Record record(ObjectNode reapply) {
        return RecordBuilder.record().server("https://sim").name("postgres").uid("uid-old").holder("alice@laptop 1")
                .phase(Phase.ORPHAN_DELETE.recorded()).startedAt("").live(LIVE).reapply(reapply)
                .claimTargets(Map.of("data-postgres-0", "20Gi")).build();
    }

    private static Optional<ObjectNode> standing(String uid) {
        ObjectNode sts = Objects.MAPPER.createObjectNode();
        sts.putObject("metadata").put("uid", uid);
        return Optional.of(sts);
    }

    @Test
    void a_run_that_only_grows_claims_goes_on_with_the_grow_whatever_stands() {
        assertThat(Convergence.resumeAt(record(null), Optional.empty())).isEqualTo(Phase.GROW);
        assertThat(Convergence.resumeAt(record(null), standing("uid-other"))).isEqualTo(Phase.GROW);
    }

    @Test
    void the_statefulset_absent_means_the_claims_then_the_re_apply() {
        assertThat(Convergence.resumeAt(record(LIVE), Optional.empty())).isEqualTo(Phase.REGROW);
    }

    @Test
    void the_recorded_uid_standing_means_the_delete_has_not_happened_the_grow_goes_again() {
        assertThat(Convergence.resumeAt(record(LIVE), standing("uid-old"))).isEqualTo(Phase.GROW);
    }

    @Test
    void another_uid_standing_means_the_re_apply_happened_only_its_verification_is_left() {
        assertThat(Convergence.resumeAt(record(LIVE), standing("uid-new"))).isEqualTo(Phase.VERIFY);
    }
}
